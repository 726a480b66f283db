// The three search modes of the code eval, each through the CodeSearch channels: full text
// alone, vectors alone, and the two fused and reranked as search_code ranks them (CODE_FUSION,
// CODE_RERANK). Ranks are
// over the whole corpus (each channel is asked for every chunk; see fuse.ts for the hybrid
// order); the store's vector channel returns at most 4,096 chunks (its KNN limit).
import { DEFAULT_CODE_EMBED_TEXT } from '../../../src/code/index.js';
import { CODE_FUSION } from '../../../src/search/index.js';
import type { CosqaQuery } from './data.js';
import { productFusedIds, type RerankFields } from './fuse.js';
import { functionRank, percentile, type SplitMetrics, splitMetrics } from './score.js';
import type { CodeSearch } from './search.js';

export const CODE_MODES = ['fts', 'vector', 'hybrid'] as const;
export type CodeMode = (typeof CODE_MODES)[number];

export interface ModeResult {
  mode: CodeMode;
  metrics: SplitMetrics;
  latencyMs: { p50: number; p99: number };
}

/** What the modes need besides the search: query vectors (codeVectorQuery text) and the map. */
export interface ModeInputs {
  search: CodeSearch;
  queries: readonly CosqaQuery[];
  /** Parallel to `queries`, or null for full text only. */
  queryVectors: readonly Float32Array[] | null;
  functionOf: ReadonlyMap<number, number>;
  /** Chunks in the corpus: a whole-corpus ranking asks for this many. */
  chunks: number;
  /** The reranker's fields of a chunk (as search_code loads them), or null: no reranker. */
  chunk: RerankFields;
}

/** The query text a mode's vector channel embeds: search_code's (codeVectorQuery). */
export const vectorQueryText = (q: CosqaQuery): string => DEFAULT_CODE_EMBED_TEXT.query(q.text);

/** Chunk ids of one query in one mode, best first, covering the whole corpus. */
async function ranked(inputs: ModeInputs, mode: CodeMode, i: number): Promise<number[]> {
  const { search, queries, queryVectors, chunks } = inputs;
  const query = queries[i] as CosqaQuery;
  if (mode === 'fts') return (await search.fullText(query.text, chunks)).map((h) => h.id);
  const vector = queryVectors?.[i];
  if (vector === undefined) throw new Error(`mode ${mode} needs query vectors`);
  if (mode === 'vector') return (await search.nearest(vector, chunks)).map((h) => h.id);
  const fts = await search.fullText(query.text, chunks);
  const near = await search.nearest(vector, chunks);
  const cosines = (ids: readonly number[]) => search.cosines(vector, ids);
  return productFusedIds(query.text, fts, near, cosines, CODE_FUSION, inputs.chunk);
}

/** Runs one mode over every query: whole-corpus ranks, split metrics and per-query latency. */
export async function runMode(inputs: ModeInputs, mode: CodeMode): Promise<ModeResult> {
  const ranks: (number | null)[] = [];
  const times: number[] = [];
  for (const [i, q] of inputs.queries.entries()) {
    const started = performance.now();
    const ids = await ranked(inputs, mode, i);
    times.push(performance.now() - started);
    ranks.push(functionRank(ids, inputs.functionOf, q.answer));
  }
  return {
    mode,
    metrics: splitMetrics(ranks),
    latencyMs: { p50: percentile(times, 50), p99: percentile(times, 99) },
  };
}
