// cairn-vault's retrieval tools: memory_retrieve, query, search, vsearch, intent_search,
// query_plan, memory_rank. Thin: resolve the vault and the filter, run the domain operation,
// summarise. Every answer carries its regime, scoreBasis and the stages that ran.
import type { Core } from '../../core/index.js';
import {
  explainVaultRanking,
  intentSearch,
  intentSearchInput,
  memoryRankInput,
  memoryRetrieve,
  memoryRetrieveInput,
  queryInput,
  queryPlan,
  queryPlanInput,
  queryVault,
  searchInput,
  searchVault,
  vsearchInput,
  vsearchVault,
} from '../../vault/index.js';
import { hitLines, searchText } from './text.js';
import { READ_ONLY, type VaultTool, vaultTool } from './vault-tool.js';

export function retrievalTools(core: Core): VaultTool[] {
  const v = core.vault;
  /** search and vsearch: one shape, two channels (searchInput and vsearchInput are alike). */
  const rawSearchTool = (
    name: string,
    description: string,
    title: string,
    run: typeof searchVault,
  ): VaultTool =>
    vaultTool({
      name,
      description,
      input: name === 'search' ? searchInput : vsearchInput,
      annotations: { title, ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const filter = await v.filter(vault, {
          collection: a.collection,
          includeInternal: a.includeInternal,
        });
        const r = await run(v.deps, {
          query: a.query,
          limit: a.limit,
          minScore: a.minScore,
          compact: a.compact,
          filter,
        });
        return { text: searchText(r), data: { vault, ...r } };
      },
    });
  return [
    vaultTool({
      name: 'memory_retrieve',
      description:
        'Recommended entry point. Classifies the query and routes it: timeline ("last session", "yesterday") → session history; causal ("why did we…") → the WHY pipeline; discovery ("similar to…") → find_similar; multi-topic → query_plan; else full hybrid search. `mode` overrides the route. Excludes the internal _clawmem collection unless includeInternal.',
      input: memoryRetrieveInput,
      annotations: { title: 'Retrieve memory', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const filter = await v.filter(vault, { includeInternal: a.includeInternal });
        const r = await memoryRetrieve(v.deps, {
          query: a.query,
          mode: a.mode,
          limit: a.limit,
          compact: a.compact,
          filter,
        });
        const head = `route ${r.route} (${r.routeSource === 'auto' ? `classified: ${r.cue}` : 'mode'})${r.note === undefined ? '' : `; ${r.note}`}`;
        const body =
          r.route === 'timeline'
            ? JSON.stringify(r.results)
            : hitLines(r.results as never[]).join('\n');
        return { text: `${head}\n${body}`, data: { vault, ...r } };
      },
    }),
    vaultTool({
      name: 'query',
      description:
        'Full hybrid pipeline: BM25 + vector + query expansion + reranking over the vault. Skips expansion when the top BM25 hit is ≥ 0.85 with a gap ≥ 0.15 (never when `intent` is given). Composite scores with the query weights (0.70/0.15/0.15). Reports which stages ran.',
      input: queryInput,
      annotations: { title: 'Hybrid query', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const filter = await v.filter(vault, {
          collection: a.collection,
          includeInternal: a.includeInternal,
        });
        const r = await queryVault(v.deps, {
          query: a.query,
          limit: a.limit,
          compact: a.compact,
          intent: a.intent,
          candidateLimit: a.candidateLimit,
          filter,
          profile: 'query',
        });
        return { text: searchText(r), data: { vault, ...r } };
      },
    }),
    rawSearchTool(
      'search',
      'BM25 only. Non-recency queries rank by the raw BM25 transform |bm25|/(1+|bm25|) (scoreBasis "fts-bm25"; minScore filters it and has no default; an explicit 0 is honoured); recency-intent queries ("latest…", "yesterday…") use the composite regime (floor 0). Terms are ORed and ranked.',
      'Full-text search',
      searchVault,
    ),
    rawSearchTool(
      'vsearch',
      'Vector only. Non-recency queries rank by raw cosine (scoreBasis "vector-cosine"; minScore has no default, an explicit 0 is honoured); recency-intent queries use the composite regime with a 0.3 floor unless minScore is given. degraded/degradedReason when the scan cap left the answer short.',
      'Vector search',
      vsearchVault,
    ),
    vaultTool({
      name: 'intent_search',
      description:
        'Intent-classified search (WHY, WHEN, ENTITY, WHAT; force_intent overrides). Not filtered: system memory (_clawmem) is searched too. Runs the shared causal pipeline: anchors, intent weighting, then one causal hop each way (≤ 3 per anchor, ≤ 10 in all; hop results carry causal: [{anchorDocid, direction}]). enable_graph_traversal: false skips the hop; stages say what ran.',
      input: intentSearchInput,
      annotations: { title: 'Intent search', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const r = await intentSearch(v.deps, {
          query: a.query,
          limit: a.limit,
          forceIntent: a.force_intent,
          graph: a.enable_graph_traversal,
          filter: await v.filter(vault, {}),
        });
        return {
          text: `intent ${r.intent} (${r.intentSource}: ${r.cue})\n${searchText(r)}`,
          data: { vault, ...r },
        };
      },
    }),
    vaultTool({
      name: 'query_plan',
      description:
        'Multi-topic decomposition: splits the query into clauses, runs the shared causal pipeline for each (anchors, intent weighting, one causal hop each way, the WHY observation lane), and fuses them. Returns per-clause results and the merged list.',
      input: queryPlanInput,
      annotations: { title: 'Query plan', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const filter = await v.filter(vault, { includeInternal: a.includeInternal });
        const r = await queryPlan(v.deps, {
          query: a.query,
          limit: a.limit,
          compact: a.compact,
          filter,
        });
        const clauses = r.clauses.map(
          (c, i) => `clause ${i + 1}: "${c.clause}" → ${c.results.length} result(s)`,
        );
        return { text: [...clauses, searchText(r)].join('\n'), data: { vault, ...r } };
      },
    }),
    vaultTool({
      name: 'memory_rank',
      description:
        'Ranking diagnostic: the real FTS + composite scoring for a query with each result’s factors (weights, recency, blended confidence, quality/length/frequency/canonical multipliers, signed pinBoost, co-activation) and raw-vs-composite ranks. The union of the composite and raw top-limit; a raw winner pushed below the cutoff is flagged demotedRawWinner. Read-only.',
      input: memoryRankInput,
      annotations: { title: 'Explain ranking', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const filter = await v.filter(vault, {
          collection: a.collection,
          includeInternal: a.includeInternal,
        });
        const r = await explainVaultRanking(v.deps, {
          query: a.query,
          limit: a.limit,
          weightProfile: a.weightProfile,
          filter,
        });
        const lines = r.items.map(
          (i) =>
            `${i.compositeRank}. ${i.docid} ${i.path} composite ${i.compositeScore.toFixed(3)} raw ${i.searchScore.toFixed(3)} (raw rank ${i.rawRank}, shift ${i.rankShift > 0 ? '+' : ''}${i.rankShift})${i.demotedRawWinner ? ' ⚠ demoted raw winner' : ''}`,
        );
        return {
          text: [`weights ${r.weights}; ${r.candidates} candidate(s)`, ...lines].join('\n'),
          data: { vault, ...r },
        };
      },
    }),
  ];
}
