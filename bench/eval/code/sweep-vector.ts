// The vector and fusion rungs of the attempts ladder: what a chunk and a query are embedded
// as, then how the product's full-text list and vector list are fused (RRF grid, z-score
// grid), the grids searched on the tuning half. In memory, over precomputed channel lists.
import { type FusionOptions, fuseRrf, fuseScores } from '../../../src/memory/index.js';
import { CODE_FUSION } from '../../../src/search/index.js';
import { type Attempt, attempt, bestOnTune, type Ranks } from './attempts.js';
import type { Hit } from './bm25.js';
import type { StoredCorpus } from './corpus.js';
import type { CosqaQuery } from './data.js';
import { functionRank } from './score.js';
import { nearestOf } from './search.js';
import { dot } from './vectors.js';

export interface VectorSet {
  /** Chunk vectors, parallel to corpus.chunks. */
  chunks: readonly Float32Array[];
  /** Query vectors, parallel to the queries. */
  queries: readonly Float32Array[];
}

export interface VectorContext {
  corpus: StoredCorpus;
  queries: readonly CosqaQuery[];
  /** Product's full-text hits per query (whole corpus, best first). */
  fts: readonly Hit[][];
  /** codeEmbeddingText chunks × codeVectorQuery queries (the product). */
  product: VectorSet;
  /** Variants: chunk text as stored, and the query as typed (either may be missing). */
  rawChunks: readonly Float32Array[] | null;
  rawQueries: readonly Float32Array[];
}

const ranksOf = (ctx: VectorContext, lists: readonly (readonly number[])[]): Ranks =>
  lists.map((ids, i) => functionRank(ids, ctx.corpus.functionOf, ctx.queries[i]?.answer ?? -1));

function vectorLists(ctx: VectorContext, set: VectorSet): number[][] {
  const ids = ctx.corpus.chunks.map((c) => c.id);
  return set.queries.map((q) => nearestOf(ids, set.chunks, q, ids.length).map((h) => h.id));
}

/** The fused list followed by the rest of the full-text, then vector, order. */
const complete = (
  fused: readonly number[],
  fts: readonly Hit[],
  vec: readonly number[],
): number[] => [...new Set([...fused, ...fts.map((h) => h.id), ...vec])];

function rrfRanks(ctx: VectorContext, vec: readonly number[][], options: FusionOptions): Ranks {
  const depth = options.depth ?? 50;
  return ranksOf(
    ctx,
    ctx.fts.map((fts, i) => {
      const near = vec[i] ?? [];
      const fused = fuseRrf(
        fts.slice(0, depth).map((h) => h.id),
        near.slice(0, depth),
        options,
      );
      return complete(
        fused.map((e) => e.rowid),
        fts,
        near,
      );
    }),
  );
}

function zscoreRanks(ctx: VectorContext, vec: readonly number[][], weight: number): Ranks {
  const depth = CODE_FUSION.depth;
  const byId = new Map(ctx.corpus.chunks.map((c, i) => [c.id, i]));
  return ranksOf(
    ctx,
    ctx.fts.map((fts, i) => {
      const near = vec[i] ?? [];
      const query = ctx.product.queries[i] as Float32Array;
      const bm25 = new Map(fts.slice(0, depth).map((h) => [h.id, h.score]));
      const ids = new Set([...bm25.keys(), ...near.slice(0, depth)]);
      const candidates = [...ids].map((id) => ({
        rowid: id,
        bm25: bm25.get(id) ?? null,
        cosine: dot(query, ctx.product.chunks[byId.get(id) ?? 0] as Float32Array),
      }));
      const fused = fuseScores(candidates, new Map(), {
        method: 'zscore',
        ftsWeight: 1 - weight,
        vectorWeight: weight,
      });
      return complete(
        fused.map((e) => e.rowid),
        fts,
        near,
      );
    }),
  );
}

const describeRrf = (o: FusionOptions): string =>
  `RRF k ${o.k}, vector weight ${o.vectorWeight}, depth ${o.depth}`;

/** Every vector and fusion attempt, in ladder order. */
export function vectorAttempts(ctx: VectorContext): Attempt[] {
  const out: Attempt[] = [];
  const variants: [string, VectorSet | null][] = [
    [
      'chunk text as stored; query as typed',
      ctx.rawChunks === null ? null : { chunks: ctx.rawChunks, queries: ctx.rawQueries },
    ],
    [
      'chunk text as stored; query without language names',
      ctx.rawChunks === null ? null : { chunks: ctx.rawChunks, queries: ctx.product.queries },
    ],
    [
      'codeEmbeddingText (name words, docstring lead, comments); query as typed',
      { chunks: ctx.product.chunks, queries: ctx.rawQueries },
    ],
  ];
  for (const [change, set] of variants) {
    if (set !== null)
      out.push(attempt('vector', change, 'vector', ranksOf(ctx, vectorLists(ctx, set))));
  }
  const vec = vectorLists(ctx, ctx.product);
  out.push(
    attempt('vector', 'product: codeEmbeddingText; codeVectorQuery', 'vector', ranksOf(ctx, vec), {
      product: true,
    }),
  );
  out.push(
    attempt(
      'fusion',
      'RRF k 60, equal weights, depth 50',
      'hybrid',
      rrfRanks(ctx, vec, { k: 60, vectorWeight: 1, depth: 50 }),
    ),
  );
  out.push(
    attempt(
      'fusion',
      'memory defaults: RRF k 5, vector weight 0.25, depth 50',
      'hybrid',
      rrfRanks(ctx, vec, { k: 5, vectorWeight: 0.25, depth: 50 }),
    ),
  );
  const rrf: { point: FusionOptions; ranks: Ranks }[] = [];
  for (const k of [5, 10, 20, 60]) {
    for (const vectorWeight of [0.25, 0.5, 0.75, 1]) {
      for (const depth of [50, 100]) {
        const point = { k, vectorWeight, depth };
        rrf.push({ point, ranks: rrfRanks(ctx, vec, point) });
      }
    }
  }
  out.push(bestOnTune('fusion', 'hybrid', rrf, describeRrf).attempt);
  const z: { point: number; ranks: Ranks }[] = [0.2, 0.3, 0.4, 0.5].map((w) => ({
    point: w,
    ranks: zscoreRanks(ctx, vec, w),
  }));
  out.push(
    bestOnTune(
      'fusion',
      'hybrid',
      z,
      (w) => `z-score, vector weight ${w}, depth ${CODE_FUSION.depth}`,
    ).attempt,
  );
  out.push(
    attempt(
      'fusion',
      `product: ${describeRrf(CODE_FUSION)}`,
      'hybrid',
      rrfRanks(ctx, vec, CODE_FUSION),
      { product: true },
    ),
  );
  return out;
}
