// The search family (spec "Search Tool Family"): search_code, a thin handler over
// core.codeSearch (src/code/search), and search_memory over core.observations (observations
// and memory facts through memory's engine). Provenance is required (family `search`): every
// search is recorded with who asked. `token` is accepted at the edge and not passed on.
import { searchMemoryInput } from '../../activity/observations/index.js';
import { searchCodeInput, toSearchInput } from '../../code/index.js';
import type { Core } from '../../core/index.js';
import { type ContextFamily, provenancedTool } from './family.js';
import { searchMemoryText } from './memory-text.js';
import { searchData, searchText } from './search-text.js';

function searchTools(core: Core) {
  return [
    provenancedTool('search', {
      name: 'search_code',
      description:
        "Search the indexed code (index_repo first): BM25 with a code-aware tokenizer (camelCase, snake_case, paths split; symbols and signatures weighted above bodies), fused with chunk vectors when an embedder has embedded them. `collection` (default: all), `extensions`, `filters` (path:, lang:, branch:, kind:, symbol:, ext:), `limit` (default 10, at most 100), `min_score` (0–1). Each result: path, start_line, end_line, symbol, kind, language, a snippet of whole lines, score and scoreBasis. The answer says its status (ok, no_match, empty_index, below_min_score, filtered_out), whether the index is still building, each collection's age and how many files changed since it was indexed; it stays within 48 KiB (`truncated` with a hint on how to narrow).",
      input: searchCodeInput,
      annotations: {
        title: 'Search code',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: async (a, ctx) => {
        const result = await core.codeSearch.search(toSearchInput(a), ctx.provenance);
        return { text: searchText(result), data: { resource: 'code', ...searchData(result) } };
      },
    }),
    provenancedTool('search', {
      name: 'search_memory',
      description:
        "Search memory: observations (store_memory) and memory facts and procedures, in one ranking by memory's engine (BM25 over title, content and tags, fused with vectors when an embedder is configured). `tags` (all of them), `session_id` (observations of that session only; facts belong to none), `min_score` (0–1; RRF scores are divided by the best an item can reach), `limit` (default 10, at most 100). Each hit: id, kind (fact, procedure, observation), observation type, title, snippet, score and scoreBasis, tags, session. Says when memory is empty, the filters admit nothing, nothing matched, or everything scored below min_score.",
      input: searchMemoryInput,
      annotations: {
        title: 'Search memory',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: async (a) => {
        const result = await core.observations.search({
          query: a.query,
          tags: a.tags,
          sessionId: a.session_id,
          minScore: a.min_score,
          limit: a.limit,
          scope: {},
        });
        return { text: searchMemoryText(result), data: { resource: 'memory', ...result } };
      },
    }),
  ];
}

export const searchFamily: ContextFamily = { name: 'search', tools: searchTools };
