// The rerank rungs of the attempts ladder: the product's fused top (CODE_FUSION, in memory)
// with the reranker's features (codeRerankFeatures, the product's), linear weights fitted on
// the tuning half only by pairwise logistic regression, each feature set's L2 strength and
// the set itself chosen by two-fold cross-validation inside the tuning half. Logs the chosen
// weights (what CODE_RERANK ships) and measures the shipped constants as the product row.
import {
  CODE_FUSION,
  CODE_RERANK,
  codeRerankFeatures,
  type CodeRerankWeights,
  fuseHybrid,
  rerankScore,
} from '../../../src/search/index.js';
import { type Attempt, attempt, type Ranks } from './attempts.js';
import type { Hit } from './bm25.js';
import type { StoredCorpus } from './corpus.js';
import type { CosqaQuery } from './data.js';
import { rerankFields } from './fuse.js';
import { fitPairwise, type Sample } from './logistic.js';
import { functionRank, TUNE_QUERIES } from './score.js';
import { nearestOf } from './search.js';
import { dot } from './vectors.js';

type Feature = keyof CodeRerankWeights;
const FEATURES = Object.keys(CODE_RERANK.weights) as Feature[];

/** Feature sets tried (each a prefix of a wider one), declared before any fit. */
const SETS: Record<string, readonly Feature[]> = {
  'fused, cosine, rank, length': ['fused', 'cosine', 'rank', 'length'],
  '+ name precision, text coverage': [
    'fused',
    'cosine',
    'rank',
    'length',
    'namePrecision',
    'textCoverage',
  ],
  'every feature': FEATURES,
};
const LAMBDAS = [0, 0.001, 0.01, 0.1];

export interface RerankContext {
  corpus: StoredCorpus;
  queries: readonly CosqaQuery[];
  /** Product's full-text hits per query (whole corpus, best first). */
  fts: readonly Hit[][];
  /** Chunk vectors (parallel to corpus.chunks) and query vectors (parallel to queries). */
  chunks: readonly Float32Array[];
  queryVectors: readonly Float32Array[];
  log: (line: string) => void;
}

/** One query: its fused top with features, and the ids after it (fused rest, fts, vectors). */
interface Prepared extends Sample {
  top: number[];
  tail: number[];
}

async function prepare(ctx: RerankContext): Promise<Prepared[]> {
  const ids = ctx.corpus.chunks.map((c) => c.id);
  const at = new Map(ids.map((id, i) => [id, i]));
  const chunk = rerankFields(ctx.corpus);
  const out: Prepared[] = [];
  for (const [i, q] of ctx.queries.entries()) {
    const qv = ctx.queryVectors[i] as Float32Array;
    const cosine = (id: number): number => dot(qv, ctx.chunks[at.get(id) ?? -1] as Float32Array);
    const fts = ctx.fts[i] ?? [];
    const near = nearestOf(ids, ctx.chunks, qv, CODE_FUSION.depth);
    const fused = await fuseHybrid({
      fts: fts.slice(0, CODE_FUSION.depth).map((h) => ({ id: h.id, bm25: h.score })),
      vector: near.map((h) => ({ id: h.id, distance: 1 - h.score })),
      options: CODE_FUSION,
      distances: async (wanted) => wanted.map((id) => ({ id, distance: 1 - cosine(id) })),
    });
    const head = fused.slice(0, CODE_RERANK.depth);
    const candidates = head.map((e) => ({
      ...(chunk(e.rowid) ?? { symbol: null, text: '', language: null }),
      id: e.rowid,
      fused: e.score,
      cosine: cosine(e.rowid),
    }));
    const rows = codeRerankFeatures(q.text, candidates).map((f) => FEATURES.map((k) => f[k]));
    const top = head.map((e) => e.rowid);
    const tail = [...fused.slice(head.length).map((e) => e.rowid), ...fts.map((h) => h.id)];
    const gold = top.findIndex((id) => ctx.corpus.functionOf.get(id) === q.answer);
    out.push({ rows, gold, top, tail });
  }
  return out;
}

/** Whole-list ranks of every query with `weights` (a full feature vector). */
function ranksWith(ctx: RerankContext, prepared: readonly Prepared[], weights: number[]): Ranks {
  const named = Object.fromEntries(FEATURES.map((k, j) => [k, weights[j] ?? 0])) as Record<
    Feature,
    number
  >;
  return prepared.map((p, i) => {
    const scored = p.top.map((id, j) => {
      const f = Object.fromEntries(FEATURES.map((k, m) => [k, p.rows[j]?.[m] ?? 0]));
      return { id, j, s: rerankScore(f as Record<Feature, number>, named) };
    });
    scored.sort((a, b) => b.s - a.s || a.j - b.j);
    const order = [...scored.map((x) => x.id), ...p.tail];
    return functionRank(order, ctx.corpus.functionOf, ctx.queries[i]?.answer ?? -1);
  });
}

const mrrOf = (ranks: Ranks): number =>
  ranks.reduce<number>((s, r) => s + (r === null ? 0 : 1 / r), 0) / Math.max(1, ranks.length);

const mask = (set: readonly Feature[]): boolean[] => FEATURES.map((k) => set.includes(k));

/** Mean held-out-fold MRR of a two-fold split of the tuning half. */
function crossValidate(
  ctx: RerankContext,
  prepared: readonly Prepared[],
  use: boolean[],
  lambda: number,
): number {
  const half = Math.floor(TUNE_QUERIES / 2);
  const folds: [number, number][] = [
    [0, half],
    [half, TUNE_QUERIES],
  ];
  let sum = 0;
  for (const [from, to] of folds) {
    const train = prepared.filter((_, i) => i < TUNE_QUERIES && (i < from || i >= to));
    const w = fitPairwise(train, use, lambda);
    sum += mrrOf(ranksWith(ctx, prepared, w).slice(from, to));
  }
  return sum / folds.length;
}

const describe = (w: readonly number[]): string =>
  FEATURES.flatMap((k, j) => ((w[j] ?? 0) === 0 ? [] : [`${k} ${w[j]}`])).join(', ');

/** The rerank rows of the ladder: each feature set's CV-chosen fit, then the shipped weights. */
export async function rerankAttempts(ctx: RerankContext): Promise<Attempt[]> {
  const prepared = await prepare(ctx);
  const tune = prepared.slice(0, TUNE_QUERIES);
  const out: Attempt[] = [];
  let chosen: { cv: number; change: string } | null = null;
  for (const [name, set] of Object.entries(SETS)) {
    const use = mask(set);
    const cvs = LAMBDAS.map((lambda) => ({
      lambda,
      cv: crossValidate(ctx, prepared, use, lambda),
    }));
    const best = cvs.reduce((a, b) => (b.cv > a.cv ? b : a));
    const w = fitPairwise(tune, use, best.lambda);
    const change = `${name}: λ ${best.lambda} (CV MRR ${best.cv.toFixed(3)}); ${describe(w)}`;
    ctx.log(`  rerank ${change}`);
    out.push(
      attempt('rerank', `best of grid: ${change}`, 'hybrid', ranksWith(ctx, prepared, w), {
        grid: LAMBDAS.length,
      }),
    );
    if (chosen === null || best.cv > chosen.cv) chosen = { cv: best.cv, change };
  }
  ctx.log(`  rerank chosen by CV: ${chosen?.change ?? 'none'}`);
  const fusedOnly = FEATURES.map((k) => (k === 'fused' ? 1 : 0));
  const base = mrrOf(ranksWith(ctx, prepared, fusedOnly).slice(0, TUNE_QUERIES));
  ctx.log(`  rerank: the fused order alone, tuning-half MRR ${base.toFixed(3)}`);
  out.push(
    attempt('rerank', 'fused order, no reranker', 'hybrid', ranksWith(ctx, prepared, fusedOnly)),
  );
  const shipped = FEATURES.map((k) => CODE_RERANK.weights[k]);
  out.push(
    attempt(
      'rerank',
      `product: CODE_RERANK (${describe(shipped)})`,
      'hybrid',
      ranksWith(ctx, prepared, shipped),
      {
        product: true,
      },
    ),
  );
  return out;
}
