// The search family (spec "Search Tool Family"): search_code, a thin handler over
// core.codeSearch (src/code/search). Provenance is required (family `search`): every search is
// recorded with who asked. `resource` is `code` only (search_memory is the next context issue);
// `token` is accepted and dropped at the edge: this server has no per-call authentication.
import { searchCodeInput, toSearchInput } from '../../code/index.js';
import type { Core } from '../../core/index.js';
import { type ContextFamily, provenancedTool } from './family.js';
import { searchText } from './search-text.js';

function searchTools(core: Core) {
  return [
    provenancedTool('search', {
      name: 'search_code',
      description:
        "Search the indexed code (index_repo first): BM25 with a code-aware tokenizer (camelCase, snake_case, paths split; symbols and signatures weighted above bodies), fused with chunk vectors when an embedder has embedded them. `collection` (default: all), `extensions`, `filters` (path:, lang:, branch:, kind:, symbol:, ext:), `limit` (default 10, at most 100), `min_score` (0–1). Each result: path, startLine, endLine, symbol, kind, language, a snippet of whole lines, score and scoreBasis. The answer says its status (ok, no_match, empty_index, below_min_score, filtered_out), whether the index is still building, each collection's age and how many files changed since it was indexed; it stays within 48 KiB (`truncated` with a hint on how to narrow).",
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
        return { text: searchText(result), data: { resource: 'code', ...result } };
      },
    }),
  ];
}

export const searchFamily: ContextFamily = { name: 'search', tools: searchTools };
