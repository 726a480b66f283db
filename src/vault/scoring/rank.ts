// Orderings of scored candidates: the raw regime's (raw score, then — only among exactly equal
// raw scores — pin, the legacy composite, the path), the composite regime's, and memory_rank's
// explanation: the union of both top-k lists with each item's ranks in both orderings.
import {
  type Breakdown,
  compositeScore,
  type ScoringDoc,
  WEIGHT_PROFILES,
  type Weights,
} from './composite.js';

/** A candidate: its identity for the last tie-break, and what the scorer needs. */
export interface Candidate extends ScoringDoc {
  readonly path: string;
}

/** A candidate with both scores computed. */
export interface Scored<C extends Candidate = Candidate> {
  readonly doc: C;
  /** The raw channel score (the ranking score on raw routes). */
  readonly raw: number;
  /** The composite under the weights asked for, with its factors. */
  readonly composite: Breakdown;
  /** The composite under the default profile: the raw regime's second tie-break. */
  readonly legacy: number;
}

/** Scores every candidate once, under `weights` and under the default profile. */
export function scoreAll<C extends Candidate>(
  docs: readonly C[],
  weights: Weights,
  now: number,
): Scored<C>[] {
  return docs.map((doc) => {
    const composite = compositeScore(doc, weights, now);
    const legacy =
      weights === WEIGHT_PROFILES.default
        ? composite.compositeScore
        : compositeScore(doc, WEIGHT_PROFILES.default, now).compositeScore;
    return { doc, raw: doc.searchScore, composite, legacy };
  });
}

const byPath = (a: Scored, b: Scored): number =>
  a.doc.path < b.doc.path ? -1 : a.doc.path > b.doc.path ? 1 : 0;

/** The raw regime: raw desc; exactly equal raw → pinned first → legacy composite desc → path. */
export function rawOrder(a: Scored, b: Scored): number {
  if (a.raw !== b.raw) return b.raw - a.raw;
  if (a.doc.pinned !== b.doc.pinned) return a.doc.pinned ? -1 : 1;
  if (a.legacy !== b.legacy) return b.legacy - a.legacy;
  return byPath(a, b);
}

/** The composite regime: composite desc; equal → raw desc → path. */
export function compositeOrder(a: Scored, b: Scored): number {
  const d = b.composite.compositeScore - a.composite.compositeScore;
  if (d !== 0) return d;
  if (a.raw !== b.raw) return b.raw - a.raw;
  return byPath(a, b);
}

/** One item of memory_rank's answer. */
export interface RankedExplanation<C extends Candidate = Candidate> {
  readonly scored: Scored<C>;
  /** 1-based position in the composite ordering of every candidate. */
  readonly compositeRank: number;
  /** 1-based position in the production raw ordering of every candidate. */
  readonly rawRank: number;
  /** rawRank − compositeRank: positive means the composite promoted the document. */
  readonly rankShift: number;
  /** In the raw top `limit`, pushed out of the composite top `limit`. */
  readonly demotedRawWinner: boolean;
}

/**
 * The union of the composite top `limit` and the raw top `limit`, in composite order, each
 * with its true rank in both orderings over all of `scored`.
 */
export function explainRanking<C extends Candidate>(
  scored: readonly Scored<C>[],
  limit: number,
): RankedExplanation<C>[] {
  const composite = [...scored].sort(compositeOrder);
  const raw = [...scored].sort(rawOrder);
  const rawRank = new Map(raw.map((s, i) => [s, i + 1]));
  const keep = new Set([...composite.slice(0, limit), ...raw.slice(0, limit)]);
  return composite.flatMap((s, i) => {
    if (!keep.has(s)) return [];
    const r = rawRank.get(s) ?? raw.length;
    const c = i + 1;
    return [
      {
        scored: s,
        compositeRank: c,
        rawRank: r,
        rankShift: r - c,
        demotedRawWinner: r <= limit && c > limit,
      },
    ];
  });
}
