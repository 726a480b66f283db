// Hybrid fusion of a full-text and a vector channel (memory's today, code search's next). Two
// methods: weighted reciprocal-rank fusion (default) and normalised-score fusion (z-score each
// channel's raw scores over the candidates, weighted sum). Pure functions over candidate lists;
// no I/O. Defaults are the ones measured on LoCoMo (docs/benchmarks.md): the local embedder is
// a much weaker ranker than BM25, so equal weights make hybrid worse than full text alone.

export interface FusedEntry {
  rowid: number;
  score: number;
  ranks: { fts: number | null; vector: number | null };
}

export type FusionMethod = 'zscore' | 'rrf';

export interface FusionOptions {
  /** `rrf` (default; scoreBasis `rrf`) or `zscore` (scoreBasis `fused`). */
  method?: FusionMethod;
  /** Weight of the full-text channel (rrf default 1, zscore default 0.7). */
  ftsWeight?: number;
  /** Weight of the vector channel (rrf default 0.25, zscore default 0.3). */
  vectorWeight?: number;
  /** RRF constant: score = Σ weight / (k + rank). Default 5 (top ranks dominate). */
  k?: number;
  /** Candidates taken from each channel (default max(5 × limit, 50)). */
  depth?: number;
}

export const RRF_DEFAULTS = { k: 5, fts: 1, vector: 0.25 } as const;
export const ZSCORE_WEIGHTS = { fts: 0.7, vector: 0.3 } as const;

/** Candidates per channel for a result page of `limit`. */
export const fusionDepth = (limit: number, options: FusionOptions = {}): number =>
  options.depth ?? Math.max(limit * 5, 50);

/** Fuses two ranked lists of row ids (best first) into one, best first. */
export function fuseRrf(
  fts: readonly number[],
  vector: readonly number[],
  options: FusionOptions = {},
): FusedEntry[] {
  const k = options.k ?? RRF_DEFAULTS.k;
  const weights = {
    fts: options.ftsWeight ?? RRF_DEFAULTS.fts,
    vector: options.vectorWeight ?? RRF_DEFAULTS.vector,
  };
  const byRow = new Map<number, FusedEntry>();
  const add = (list: readonly number[], channel: 'fts' | 'vector'): void => {
    list.forEach((rowid, i) => {
      const entry = byRow.get(rowid) ?? { rowid, score: 0, ranks: { fts: null, vector: null } };
      entry.ranks[channel] = i + 1;
      entry.score += weights[channel] / (k + i + 1);
      byRow.set(rowid, entry);
    });
  };
  add(fts, 'fts');
  add(vector, 'vector');
  return [...byRow.values()].sort((a, b) => b.score - a.score || a.rowid - b.rowid);
}

/** One candidate's raw channel scores: BM25 relevance and cosine similarity. */
export interface ChannelScores {
  rowid: number;
  /** Raw BM25 (|bm25|); null when the item matched no query term. */
  bm25: number | null;
  /** Cosine similarity; null when the item has no vector from the current model yet. */
  cosine: number | null;
}

/** (x − mean) / sd over `values`; all zeros when the values do not vary. */
function zScorer(values: readonly number[]): (x: number) => number {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, n);
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n));
  return sd > 0 ? (x) => (x - mean) / sd : () => 0;
}

/**
 * Normalised-score fusion: each channel's raw scores are z-scored over the candidate set and
 * summed with the channel weights. A candidate no query term matched counts as BM25 0; one not
 * embedded yet takes the lowest cosine among the candidates (neither boosted nor dropped).
 * `ranks` are the 1-based positions in each channel's own list (null when it did not return it).
 */
export function fuseScores(
  candidates: readonly ChannelScores[],
  ranks: ReadonlyMap<number, FusedEntry['ranks']>,
  options: FusionOptions = {},
): FusedEntry[] {
  const wf = options.ftsWeight ?? ZSCORE_WEIGHTS.fts;
  const wv = options.vectorWeight ?? ZSCORE_WEIGHTS.vector;
  const cosines = candidates.flatMap((c) => (c.cosine === null ? [] : [c.cosine]));
  const floor = cosines.length === 0 ? 0 : Math.min(...cosines);
  const bm25 = (c: ChannelScores): number => c.bm25 ?? 0;
  const cosine = (c: ChannelScores): number => c.cosine ?? floor;
  const zf = zScorer(candidates.map(bm25));
  const zv = zScorer(candidates.map(cosine));
  return candidates
    .map((c) => ({
      rowid: c.rowid,
      score: wf * zf(bm25(c)) + wv * zv(cosine(c)),
      ranks: ranks.get(c.rowid) ?? { fts: null, vector: null },
    }))
    .sort((a, b) => b.score - a.score || a.rowid - b.rowid);
}
