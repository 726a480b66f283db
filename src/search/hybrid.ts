// Hybrid ranking glue shared by every corpus: turns a full-text and a vector candidate list
// into one fused list. For score fusion it first asks for the exact cosine of full-text
// candidates the vector list missed, so both channels are scored on every candidate (a missing
// score would bias the fusion). Pure apart from that callback: no SQL here.
import { type FusedEntry, fuseRrf, fuseScores, type FusionOptions } from './fusion.js';

export interface HybridInput {
  /** Full-text candidates, best first, with their raw BM25. */
  fts: readonly { id: number; bm25: number }[];
  /** Vector candidates, closest first, with their cosine distance. */
  vector: readonly { id: number; distance: number }[];
  options: FusionOptions;
  /** Cosine distances of the listed ids (those without a vector are left out). */
  distances: (ids: readonly number[]) => Promise<readonly { id: number; distance: number }[]>;
}

/** The fused candidates, best first (RRF, or normalised-score fusion for `zscore`). */
export async function fuseHybrid(input: HybridInput): Promise<FusedEntry[]> {
  const { fts, vector, options } = input;
  if (options.method !== 'zscore') {
    return fuseRrf(
      fts.map((h) => h.id),
      vector.map((h) => h.id),
      options,
    );
  }
  const ranks = new Map<number, FusedEntry['ranks']>();
  fts.forEach((h, i) => ranks.set(h.id, { fts: i + 1, vector: null }));
  vector.forEach((h, i) => {
    const r = ranks.get(h.id);
    if (r === undefined) ranks.set(h.id, { fts: null, vector: i + 1 });
    else r.vector = i + 1;
  });
  const cosine = new Map(vector.map((h) => [h.id, 1 - h.distance]));
  const missing = fts.filter((h) => !cosine.has(h.id)).map((h) => h.id);
  if (missing.length > 0) {
    for (const h of await input.distances(missing)) cosine.set(h.id, 1 - h.distance);
  }
  const bm25 = new Map(fts.map((h) => [h.id, h.bm25]));
  const candidates = [...ranks.keys()].map((rowid) => ({
    rowid,
    bm25: bm25.get(rowid) ?? null,
    cosine: cosine.get(rowid) ?? null,
  }));
  return fuseScores(candidates, ranks, options);
}
