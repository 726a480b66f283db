// Pairwise logistic regression for the code reranker's weights (sweep-rerank.ts): for every
// query whose paired chunk is among the candidates, the loss of each (paired, other) pair is
// ln(1 + e^−(s_paired − s_other)), plus λ‖w‖² over standardised features; full-batch gradient
// descent from zero for a fixed number of steps, so a fit is deterministic.

/** One query's candidates: feature rows (fused order) and the paired chunk's row, or -1. */
export interface Sample {
  rows: number[][];
  gold: number;
}

const STEPS = 300;
const RATE = 0.5;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Mean and standard deviation of each feature over every candidate row. */
function scaleOf(samples: readonly Sample[], dims: number): { mean: number[]; sd: number[] } {
  const rows = samples.flatMap((s) => s.rows);
  const n = Math.max(1, rows.length);
  const mean = Array.from(
    { length: dims },
    (_, k) => rows.reduce((a, r) => a + (r[k] ?? 0), 0) / n,
  );
  const sd = mean.map((m, k) => {
    const v = rows.reduce((a, r) => a + ((r[k] ?? 0) - m) ** 2, 0) / n;
    return v > 0 ? Math.sqrt(v) : 1;
  });
  return { mean, sd };
}

/** Standardised differences paired − other over the features in `use`. */
function pairsOf(
  samples: readonly Sample[],
  use: readonly number[],
  sd: readonly number[],
): number[][] {
  const pairs: number[][] = [];
  for (const s of samples) {
    const g = s.rows[s.gold];
    if (g === undefined) continue;
    s.rows.forEach((r, j) => {
      if (j !== s.gold) pairs.push(use.map((k) => ((g[k] ?? 0) - (r[k] ?? 0)) / (sd[k] ?? 1)));
    });
  }
  return pairs;
}

/**
 * Weights (one per feature; 0 where `use` is false), on the features' own scale and rounded
 * to 3 decimals, as the reranker multiplies them.
 */
export function fitPairwise(
  samples: readonly Sample[],
  use: readonly boolean[],
  lambda: number,
): number[] {
  const dims = use.length;
  const idx = use.flatMap((u, k) => (u ? [k] : []));
  const { sd } = scaleOf(samples, dims);
  const pairs = pairsOf(samples, idx, sd);
  const w = idx.map(() => 0);
  for (let step = 0; step < STEPS && pairs.length > 0; step++) {
    const grad = w.map((x) => 2 * lambda * x);
    for (const p of pairs) {
      const s = p.reduce((a, x, k) => a + x * (w[k] ?? 0), 0);
      const g = -1 / (1 + Math.exp(s)) / pairs.length;
      p.forEach((x, k) => (grad[k] = (grad[k] ?? 0) + g * x));
    }
    w.forEach((x, k) => (w[k] = x - RATE * (grad[k] ?? 0)));
  }
  const out = new Array<number>(dims).fill(0);
  idx.forEach((k, j) => (out[k] = round3((w[j] ?? 0) / (sd[k] ?? 1))));
  return out;
}
