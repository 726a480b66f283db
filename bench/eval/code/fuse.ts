// Hybrid lists for the code eval: the full-text and vector lists of one query fused with the
// project's fusion (`fuseRrf`, or `fuseScores` over z-scored BM25 and cosine), followed by the
// rest of the full-text, then vector, order so a rank exists for every chunk. `productFusedIds`
// ranks as search_code does (src/search's fuseHybrid, exact cosines for every candidate, then
// the reranker over the fused top, rerankFused).
import {
  type CodeRerankChunk,
  fuseHybrid,
  type FusionOptions,
  fuseRrf,
  fuseScores,
  rerankFused,
} from '../../../src/search/index.js';
import type { Hit } from './bm25.js';
import type { StoredCorpus } from './corpus.js';

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

/** What the reranker reads of one chunk (null: rank without the reranker). */
export type RerankFields = ((id: number) => CodeRerankChunk | undefined) | null;

/**
 * Chunk ids best first, ranked as search_code ranks (fuseHybrid over each channel's top
 * `depth`, full-text candidates the vector list missed given their exact cosine by `cosines`;
 * then, for z-score fusion with `chunk` fields, the reranker over the fused top as rankChunks
 * runs it), then the rest of the full-text and vector orders.
 */
export async function productFusedIds(
  query: string,
  fts: readonly Hit[],
  near: readonly Hit[],
  cosines: (ids: readonly number[]) => Promise<readonly Hit[]>,
  options: CodeFusion,
  chunk: RerankFields,
): Promise<number[]> {
  const cosine = new Map(near.slice(0, options.depth).map((h) => [h.id, h.score]));
  const fused = await fuseHybrid({
    fts: fts.slice(0, options.depth).map((h) => ({ id: h.id, bm25: h.score })),
    vector: near.slice(0, options.depth).map((h) => ({ id: h.id, distance: 1 - h.score })),
    options,
    distances: async (ids) =>
      (await cosines(ids)).map((h) => {
        cosine.set(h.id, h.score);
        return { id: h.id, distance: 1 - h.score };
      }),
  });
  const order =
    chunk === null || options.method !== 'zscore'
      ? fused
      : (({ top, rest }) => [...top, ...rest])(
          rerankFused(query, fused, chunk, (id) => cosine.get(id) ?? null),
        );
  return [
    ...new Set([...order.map((e) => e.rowid), ...fts.map((h) => h.id), ...near.map((h) => h.id)]),
  ];
}

/** The reranker's fields of each stored chunk (every CoSQA file is Python). */
export function rerankFields(corpus: StoredCorpus): (id: number) => CodeRerankChunk | undefined {
  const byId = new Map(
    corpus.chunks.map((c) => [c.id, { symbol: c.symbol, text: c.text, language: 'python' }]),
  );
  return (id) => byId.get(id);
}
