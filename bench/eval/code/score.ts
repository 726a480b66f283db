// Scoring for the code eval: the rank of a query's paired function in a ranked chunk list
// (chunks of one function count once, at their best position), and MRR / R@k over the
// tuning half, the held-out half and all queries.

/** Queries [0, TUNE_QUERIES) are the tuning split; the rest are held out. */
export const TUNE_QUERIES = 250;
export const SPLITS = ['tune', 'test', 'all'] as const;
export type Split = (typeof SPLITS)[number];

export interface Metrics {
  queries: number;
  mrr: number;
  r1: number;
  r5: number;
  r10: number;
}

export type SplitMetrics = Record<Split, Metrics>;

/** 1-based rank of function `answer` in `chunkIds` (best first), or null when absent. */
export function functionRank(
  chunkIds: Iterable<number>,
  functionOf: ReadonlyMap<number, number>,
  answer: number,
): number | null {
  const seen = new Set<number>();
  for (const id of chunkIds) {
    const fn = functionOf.get(id);
    if (fn === undefined || seen.has(fn)) continue;
    seen.add(fn);
    if (fn === answer) return seen.size;
  }
  return null;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** MRR and recall at 1, 5, 10 over `ranks` (null = not found: reciprocal rank 0). */
export function metricsOf(ranks: readonly (number | null)[]): Metrics {
  const n = ranks.length;
  const at = (k: number): number => ranks.filter((r) => r !== null && r <= k).length / n;
  const mrr = ranks.reduce<number>((s, r) => s + (r === null ? 0 : 1 / r), 0) / n;
  return { queries: n, mrr: round(mrr), r1: round(at(1)), r5: round(at(5)), r10: round(at(10)) };
}

/** Metrics of the tuning half, the held-out half and all; `ranks` in query-file order. */
export function splitMetrics(ranks: readonly (number | null)[]): SplitMetrics {
  return {
    tune: metricsOf(ranks.slice(0, TUNE_QUERIES)),
    test: metricsOf(ranks.slice(TUNE_QUERIES)),
    all: metricsOf(ranks),
  };
}

/** p-th percentile (0–100) of `values`, rounded to 0.01. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[i] ?? 0) * 100) / 100;
}
