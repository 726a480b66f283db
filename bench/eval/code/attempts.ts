// The attempts ladder of the code eval: each configuration tried, its metrics on the tuning
// half, the held-out half and all queries, and whether it is what the product ships. A grid is
// searched on the tuning half only; its best row is reported on all three.
import type { CodeMode } from './modes.js';
import { type SplitMetrics, splitMetrics } from './score.js';

export const STAGES = [
  'baseline',
  'tokenizer',
  'fields',
  'bm25',
  'vector',
  'fusion',
  'rerank',
] as const;
export type Stage = (typeof STAGES)[number];

export interface Attempt {
  stage: Stage;
  change: string;
  mode: CodeMode;
  metrics: SplitMetrics;
  /** The product's setting (CODE_FIELD_WEIGHTS, CODE_BM25, CODE_FUSION, CODE_RERANK, the tokenizer). */
  product?: boolean;
  /** Best on the tuning half among `grid` configurations. */
  grid?: number;
}

/** Ranks of the paired functions, query-file order (null = not found). */
export type Ranks = readonly (number | null)[];

export const attempt = (
  stage: Stage,
  change: string,
  mode: CodeMode,
  ranks: Ranks,
  extra: Pick<Attempt, 'product' | 'grid'> = {},
): Attempt => ({ stage, change, mode, metrics: splitMetrics(ranks), ...extra });

/** The measured grid point with the best tuning-half MRR (first on ties), as an attempt row. */
export function bestOnTune<T>(
  stage: Stage,
  mode: CodeMode,
  measured: readonly { point: T; ranks: Ranks }[],
  describe: (point: T) => string,
): { point: T; attempt: Attempt } {
  let best: { point: T; attempt: Attempt } | null = null;
  for (const { point, ranks } of measured) {
    const row = attempt(stage, `best of grid: ${describe(point)}`, mode, ranks, {
      grid: measured.length,
    });
    if (best === null || row.metrics.tune.mrr > best.attempt.metrics.tune.mrr) {
      best = { point, attempt: row };
    }
  }
  if (best === null) throw new Error('empty grid');
  return best;
}
