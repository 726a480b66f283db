// Hybrid lists for the code eval: the full-text and vector lists of one query fused with the
// project's fusion (`fuseRrf`, or `fuseScores` over z-scored BM25 and cosine), followed by the
// rest of the full-text, then vector, order so a rank exists for every chunk. `productFusedIds`
// fuses as search_code does (src/search's fuseHybrid, exact cosines for every candidate).
import { fuseHybrid, type FusionOptions, fuseRrf, fuseScores } from '../../../src/search/index.js';
import type { Hit } from './bm25.js';

/** Fusion settings: the project's options with the candidate depth required. */
export type CodeFusion = FusionOptions & { depth: number };

/**
 * Chunk ids best first. `cosine(id)` is the exact similarity of a chunk to the query (z-score
 * fusion scores full-text candidates the vector list did not return).
 */
export function fusedIds(
  fts: readonly Hit[],
  near: readonly Hit[],
  cosine: (id: number) => number,
  options: CodeFusion,
): number[] {
  const top = fts.slice(0, options.depth);
  const close = near.slice(0, options.depth);
  let fused: number[];
  if (options.method === 'zscore') {
    const bm25 = new Map(top.map((h) => [h.id, h.score]));
    const ids = new Set([...bm25.keys(), ...close.map((h) => h.id)]);
    const candidates = [...ids].map((id) => ({
      rowid: id,
      bm25: bm25.get(id) ?? null,
      cosine: cosine(id),
    }));
    fused = fuseScores(candidates, new Map(), options).map((e) => e.rowid);
  } else {
    fused = fuseRrf(
      top.map((h) => h.id),
      close.map((h) => h.id),
      options,
    ).map((e) => e.rowid);
  }
  return [...new Set([...fused, ...fts.map((h) => h.id), ...near.map((h) => h.id)])];
}

/**
 * Chunk ids best first, fused as search_code fuses (fuseHybrid over each channel's top
 * `depth`; full-text candidates the vector list missed get their exact cosine from `cosines`),
 * then the rest of the full-text and vector orders.
 */
export async function productFusedIds(
  fts: readonly Hit[],
  near: readonly Hit[],
  cosines: (ids: readonly number[]) => Promise<readonly Hit[]>,
  options: CodeFusion,
): Promise<number[]> {
  const fused = await fuseHybrid({
    fts: fts.slice(0, options.depth).map((h) => ({ id: h.id, bm25: h.score })),
    vector: near.slice(0, options.depth).map((h) => ({ id: h.id, distance: 1 - h.score })),
    options,
    distances: async (ids) =>
      (await cosines(ids)).map((h) => ({ id: h.id, distance: 1 - h.score })),
  });
  return [
    ...new Set([...fused.map((e) => e.rowid), ...fts.map((h) => h.id), ...near.map((h) => h.id)]),
  ];
}
