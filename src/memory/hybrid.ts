// Memory's hybrid ranking: its two channels' candidate lists through the shared fusion glue
// (src/search/hybrid.ts), with the store's by-rowid cosine lookup for score fusion.
import { type FusedEntry, type FusionOptions, fuseHybrid } from '../search/index.js';
import type { FtsHit, MemoryIndex, VectorHit } from '../store/index.js';

export interface HybridInput {
  index: MemoryIndex;
  /** Vector space of `query` and of the vectors to compare it with. */
  model: string;
  query: Float32Array;
  fts: readonly FtsHit[];
  vector: readonly VectorHit[];
  options: FusionOptions;
}

/** The fused candidates, best first (RRF, or normalised-score fusion for `zscore`). */
export function fuseChannels(input: HybridInput): Promise<FusedEntry[]> {
  return fuseHybrid({
    fts: input.fts.map((h) => ({ id: h.rowid, bm25: h.bm25 })),
    vector: input.vector.map((h) => ({ id: h.rowid, distance: h.distance })),
    options: input.options,
    distances: async (ids) =>
      (await input.index.distances(input.model, input.query, ids)).map((h) => ({
        id: h.rowid,
        distance: h.distance,
      })),
  });
}
