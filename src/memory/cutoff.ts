// The relevance cut-off the dashboard applies to vector and hybrid results: the vector channel
// always has nearest neighbours, so without it any query lists unrelated notes. Pure; it marks
// hits `weak` (never reorders or drops them) and is opt-in, so memory_search is unchanged.
import type { SearchHit, SearchResult } from './model.js';

/** When a hit counts as weak, relative to the best of its own result. */
export interface RelevanceCutoff {
  /** A full-text match is weak below this fraction of the best fused (hybrid) score. */
  fusedRatio: number;
  /** A hit only the vector channel found is weak below this fraction of the best cosine. */
  cosineRatio: number;
}

/**
 * Measured on 30 notes in 6 topics with the local model (docs/dashboard.md): keeps 23 of the 45
 * same-topic hits and 3 of the 75 unrelated ones of 12 queries' top 10s.
 */
export const DEFAULT_CUTOFF: RelevanceCutoff = { fusedRatio: 0.25, cosineRatio: 0.8 };

/** The cut-off as applied to one result: its rule and how many hits it marked weak. */
export interface CutoffSummary extends RelevanceCutoff {
  hidden: number;
}

function isWeak(
  hit: SearchHit,
  best: { score: number; cosine: number },
  cosine: number | null,
  cut: RelevanceCutoff,
): boolean {
  if (hit.scoreBasis !== 'vector-cosine' && hit.ranks.fts !== null) {
    return hit.score < cut.fusedRatio * best.score;
  }
  return cosine === null || cosine < cut.cosineRatio * best.cosine;
}

/**
 * Marks the weak hits of a vector or hybrid result (`weak`, with each hit's `cosine`, null when
 * the vector channel did not return it). `cosines` maps item ids to their cosine similarity.
 * A full-text result (or a degraded one) is returned as is: every hit matched a query term.
 */
export function applyCutoff(
  result: SearchResult,
  cosines: ReadonlyMap<string, number>,
  cut: RelevanceCutoff,
): SearchResult {
  const top = result.results[0];
  if (top === undefined || top.scoreBasis === 'fts-bm25') return result;
  const best = { score: top.score, cosine: Math.max(...cosines.values()) };
  const results = result.results.map((h) => {
    const cosine = cosines.get(h.id) ?? null;
    return { ...h, cosine, weak: isWeak(h, best, cosine, cut) };
  });
  const hidden = results.filter((h) => h.weak).length;
  return { ...result, results, cutoff: { ...cut, hidden } };
}
