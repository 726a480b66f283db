// The vector and fusion rungs of the attempts ladder: what a chunk and a query are embedded
// as, then how the product's full-text list and vector list are fused (RRF grid, z-score
// grid), the grids searched on the tuning half. In memory, over precomputed channel lists.
import { CODE_FUSION } from '../../../src/search/index.js';
import { type Attempt, attempt, bestOnTune, type Ranks } from './attempts.js';
import type { Hit } from './bm25.js';
import type { StoredCorpus } from './corpus.js';
import type { CosqaQuery } from './data.js';
import { type CodeFusion, fusedIds } from './fuse.js';
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

function vectorLists(ctx: VectorContext, set: VectorSet): Hit[][] {
  const ids = ctx.corpus.chunks.map((c) => c.id);
  return set.queries.map((q) => nearestOf(ids, set.chunks, q, ids.length));
}

const idsOf = (lists: readonly Hit[][]): number[][] => lists.map((l) => l.map((h) => h.id));

/** Ranks of every query for one fusion of the product's full-text and vector lists. */
function fusionRanks(ctx: VectorContext, vec: readonly Hit[][], options: CodeFusion): Ranks {
  const byId = new Map(ctx.corpus.chunks.map((c, i) => [c.id, i]));
  return ranksOf(
    ctx,
    ctx.fts.map((fts, i) => {
      const query = ctx.product.queries[i] as Float32Array;
      const cosine = (id: number): number =>
        dot(query, ctx.product.chunks[byId.get(id) ?? 0] as Float32Array);
      return fusedIds(fts, vec[i] ?? [], cosine, options);
    }),
  );
}

const describe = (o: CodeFusion): string =>
  o.method === 'zscore'
    ? `z-score, vector weight ${o.vectorWeight}, depth ${o.depth}`
    : `RRF k ${o.k}, vector weight ${o.vectorWeight}, depth ${o.depth}`;

const RRF_GRID: CodeFusion[] = [5, 10, 20, 60].flatMap((k) =>
  [0.25, 0.5, 0.75, 1].flatMap((vectorWeight) =>
    [50, 100].map((depth) => ({ method: 'rrf' as const, k, vectorWeight, depth })),
  ),
);
const ZSCORE_GRID: CodeFusion[] = [0.1, 0.15, 0.2, 0.25, 0.3, 0.4].flatMap((w) =>
  [50, 100].map((depth) => ({
    method: 'zscore' as const,
    ftsWeight: 1 - w,
    vectorWeight: w,
    depth,
  })),
);

/** Every vector and fusion attempt, in ladder order. */
export function vectorAttempts(ctx: VectorContext): Attempt[] {
  const out: Attempt[] = [];
  const raw = ctx.rawChunks;
  const variants: [string, VectorSet | null][] = [
    [
      'chunk text as stored; query as typed',
      raw === null ? null : { chunks: raw, queries: ctx.rawQueries },
    ],
    [
      'chunk text as stored; query without language names',
      raw === null ? null : { chunks: raw, queries: ctx.product.queries },
    ],
    [
      'codeEmbeddingText (name words, docstring lead, comments); query as typed',
      { chunks: ctx.product.chunks, queries: ctx.rawQueries },
    ],
  ];
  for (const [change, set] of variants) {
    if (set !== null)
      out.push(attempt('vector', change, 'vector', ranksOf(ctx, idsOf(vectorLists(ctx, set)))));
  }
  const vec = vectorLists(ctx, ctx.product);
  out.push(
    attempt(
      'vector',
      'product: codeEmbeddingText; codeVectorQuery',
      'vector',
      ranksOf(ctx, idsOf(vec)),
      { product: true },
    ),
  );
  const fixed: [string, CodeFusion][] = [
    ['RRF k 60, equal weights, depth 50', { k: 60, vectorWeight: 1, depth: 50 }],
    [
      'memory defaults: RRF k 5, vector weight 0.25, depth 50',
      { k: 5, vectorWeight: 0.25, depth: 50 },
    ],
  ];
  for (const [change, o] of fixed)
    out.push(attempt('fusion', change, 'hybrid', fusionRanks(ctx, vec, o)));
  for (const grid of [RRF_GRID, ZSCORE_GRID]) {
    const measured = grid.map((point) => ({ point, ranks: fusionRanks(ctx, vec, point) }));
    out.push(bestOnTune('fusion', 'hybrid', measured, describe).attempt);
  }
  out.push(
    attempt(
      'fusion',
      `product: ${describe(CODE_FUSION)}`,
      'hybrid',
      fusionRanks(ctx, vec, CODE_FUSION),
      { product: true },
    ),
  );
  return out;
}
