// The vault eval's modes: the cairn-vault tools called through a real SDK client (search,
// vsearch, query, memory_retrieve with limit 10, compact), the plain BM25 baseline, and the
// query pipeline's stage ablations run in process through the same domain call the query tool
// makes (queryVault), with one stage swapped for a no-op. Every answer is judged by its paths.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { Core } from '../../../src/core/index.js';
import { queryVault } from '../../../src/vault/index.js';
import {
  createFeatureReranker,
  createPrfExpander,
  type QueryExpander,
  type Reranker,
} from '../../../src/vault/query/index.js';
import { createBm25Baseline } from './baseline.js';
import type { VaultCase, VaultQuestion } from './data.js';
import { byCategory, type Judged, judge, type ModeMetrics, summarise } from './score.js';

export const LIMIT = 10;

/** One mode's figures: overall and per category, and on the tuning / held-out conversations. */
export interface ModeResult {
  mode: string;
  kind: 'tool' | 'baseline' | 'ablation';
  metrics: Record<string, ModeMetrics>;
  split: { tune: ModeMetrics; test: ModeMetrics };
  /** memory_retrieve: how many questions took each route. */
  routes?: Record<string, number>;
}

/** Ranks one question of one case: the result paths, best first, and an optional note. */
export type Ranker = (
  c: VaultCase,
  q: VaultQuestion,
) => Promise<{ paths: string[]; route?: string }>;

/** Runs `ranker` over every question; the first `tuneCases` cases are the tuning half. */
export async function runMode(
  mode: string,
  kind: ModeResult['kind'],
  cases: readonly VaultCase[],
  tuneCases: number,
  ranker: Ranker,
): Promise<ModeResult> {
  const judged: { j: Judged; tune: boolean }[] = [];
  const routes: Record<string, number> = {};
  for (const [i, c] of cases.entries()) {
    for (const q of c.questions) {
      const started = performance.now();
      const r = await ranker(c, q);
      const ms = performance.now() - started;
      judged.push({ j: judge(q, r.paths, ms), tune: i < tuneCases });
      if (r.route !== undefined) routes[r.route] = (routes[r.route] ?? 0) + 1;
    }
  }
  const all = judged.map((x) => x.j);
  return {
    mode,
    kind,
    metrics: byCategory(all),
    split: {
      tune: summarise(judged.filter((x) => x.tune).map((x) => x.j)),
      test: summarise(judged.filter((x) => !x.tune).map((x) => x.j)),
    },
    ...(Object.keys(routes).length > 0 ? { routes } : {}),
  };
}

interface ToolAnswer {
  route?: string;
  results?: { path?: unknown }[];
}

/** A cairn-vault tool through the client; a tool error fails the eval (it is a product bug). */
export function toolRanker(client: Client, tool: string): Ranker {
  return async (c, q) => {
    const result = (await client.callTool({
      name: tool,
      arguments: { query: q.question, vault: c.vault, limit: LIMIT, compact: true },
    })) as CallToolResult;
    if (result.isError === true) {
      const first = result.content[0];
      throw new Error(`${tool}: ${first?.type === 'text' ? first.text : 'tool error'}`);
    }
    const data = result.structuredContent as ToolAnswer;
    const paths = (data.results ?? []).flatMap((r) => (typeof r.path === 'string' ? [r.path] : []));
    return { paths, ...(data.route === undefined ? {} : { route: data.route }) };
  };
}

/** The plain BM25 baseline over each case's whole documents (built once per case). */
export function baselineRanker(): Ranker {
  const built = new Map<string, ReturnType<typeof createBm25Baseline>>();
  return (c, q) => {
    let b = built.get(c.vault);
    if (b === undefined) {
      b = createBm25Baseline(c.docs.map((d) => ({ path: d.path, text: d.markdown })));
      built.set(c.vault, b);
    }
    return Promise.resolve({ paths: b.rank(q.question, LIMIT) });
  };
}

/** No expansion: the original query alone. */
export const NO_EXPANSION: QueryExpander = {
  name: 'off',
  expand: (input) =>
    Promise.resolve({
      queries: [{ text: input.query, weight: 1, source: 'original' }],
      terms: [],
      stage: 'off',
    }),
};

/** No rerank: the fused order (score 1 / fused rank). */
export const FUSED_ORDER: Reranker = {
  name: 'off (fused order)',
  rerank: (input) =>
    Promise.resolve({
      results: input.candidates.map((c) => ({ id: c.id, score: 1 / c.fusedRank, features: {} })),
      stage: 'off (fused order)',
    }),
};

export interface Ablation {
  mode: string;
  expander?: QueryExpander;
  reranker?: Reranker;
  vectors?: boolean;
}

/** The stage ablations of the query pipeline (the full row checks in-process = the tool). */
export const ABLATIONS: readonly Ablation[] = [
  { mode: 'query: full (in process)' },
  { mode: 'query: expansion off', expander: NO_EXPANSION },
  { mode: 'query: rerank off (fused order)', reranker: FUSED_ORDER },
  { mode: 'query: vector legs off', vectors: false },
  { mode: 'query: expansion and rerank off', expander: NO_EXPANSION, reranker: FUSED_ORDER },
];

/** The query tool's domain call with the ablation's stages, over the core's vault deps. */
export function ablationRanker(core: Core, a: Ablation): Ranker {
  const stages = {
    expander: a.expander ?? createPrfExpander(),
    reranker: a.reranker ?? createFeatureReranker(),
  };
  const deps = a.vectors === false ? { ...core.vault.deps, embedder: null } : core.vault.deps;
  return async (c, q) => {
    const filter = await core.vault.filter(c.vault, {});
    const r = await queryVault(
      deps,
      {
        query: q.question,
        limit: LIMIT,
        compact: true,
        candidateLimit: 30,
        filter,
        profile: 'query',
      },
      stages,
    );
    return { paths: r.results.map((h) => h.path) };
  };
}
