// Hybrid ranking: turns the two channels' candidate lists into one fused list. For score
// fusion it first fetches the exact cosine of full-text candidates the vector list missed, so
// both channels are scored on every candidate (a missing score would bias the fusion).
import { type FusedEntry, fuseRrf, fuseScores, type FusionOptions } from '../search/index.js';
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
export async function fuseChannels(input: HybridInput): Promise<FusedEntry[]> {
  const { fts, vector, options } = input;
  if (options.method !== 'zscore') {
    return fuseRrf(
      fts.map((h) => h.rowid),
      vector.map((h) => h.rowid),
      options,
    );
  }
  const ranks = new Map<number, FusedEntry['ranks']>();
  fts.forEach((h, i) => ranks.set(h.rowid, { fts: i + 1, vector: null }));
  vector.forEach((h, i) => {
    const r = ranks.get(h.rowid);
    if (r === undefined) ranks.set(h.rowid, { fts: null, vector: i + 1 });
    else r.vector = i + 1;
  });
  const cosine = new Map(vector.map((h) => [h.rowid, 1 - h.distance]));
  const missing = fts.filter((h) => !cosine.has(h.rowid)).map((h) => h.rowid);
  for (const h of await input.index.distances(input.model, input.query, missing)) {
    cosine.set(h.rowid, 1 - h.distance);
  }
  const bm25 = new Map(fts.map((h) => [h.rowid, h.bm25]));
  const candidates = [...ranks.keys()].map((rowid) => ({
    rowid,
    bm25: bm25.get(rowid) ?? null,
    cosine: cosine.get(rowid) ?? null,
  }));
  return fuseScores(candidates, ranks, options);
}
