// The composite score of the vault's composite regime: a weighted blend of relevance,
// recency and confidence, times the document's multipliers, plus the pin boost with its 1.0
// cap. Every factor is recorded in the breakdown as it is used, so the breakdown reproduces
// the score exactly (memory_rank shows it); nothing here is re-derived after the fact.
import { recencyScore } from './recency.js';

/** Weights of relevance, recency and confidence; they sum to 1. */
export interface Weights {
  readonly search: number;
  readonly recency: number;
  readonly confidence: number;
}

/** The weight profiles: hooks and memory_retrieve, the query tool, recency-intent queries. */
export const WEIGHT_PROFILES = {
  default: { search: 0.5, recency: 0.25, confidence: 0.25 },
  query: { search: 0.7, recency: 0.15, confidence: 0.15 },
  recency: { search: 0.35, recency: 0.45, confidence: 0.2 },
} as const satisfies Record<string, Weights>;
export type WeightProfile = keyof typeof WEIGHT_PROFILES;

/** Added to a pinned document's composite score, which is then capped at PIN_CAP. */
export const PIN_BOOST = 0.3;
export const PIN_CAP = 1;

/** Confidence a document's content type lends it when nothing else says. */
const TYPE_CONFIDENCE: Readonly<Record<string, number>> = {
  decision: 0.8,
  reference: 0.75,
  preference: 0.75,
  research: 0.65,
  deduction: 0.6,
  handoff: 0.6,
  progress: 0.55,
  session: 0.5,
  note: 0.5,
  observation: 0.45,
};

/** What the scorer knows about one candidate document. */
export interface ScoringDoc {
  /** The channel's raw score in [0, 1] (FTS transform or cosine). */
  readonly searchScore: number;
  readonly contentType: string;
  /** authored_at ?? modified_at, ms since the epoch: the axis recency decays on. */
  readonly effectiveAt: number;
  /** Stored confidence in [0, 1] (frontmatter or set by a tool); null when none. */
  readonly confidence: number | null;
  /** Stored quality in [0, 1]; null when none (neutral). */
  readonly quality: number | null;
  /** Words in the document. */
  readonly words: number;
  /** Times the document was returned by a retrieval tool. */
  readonly accessCount: number;
  /** Frontmatter `canonical: true`, or superseded by another document. */
  readonly canonical: boolean;
  readonly superseded: boolean;
  /** Times it came back in the same top results as other documents of this answer. */
  readonly coActivations: number;
  readonly pinned: boolean;
}

/** Every factor of one composite score, captured inside the scorer. */
export interface Breakdown {
  readonly weights: Weights;
  readonly relevance: number;
  readonly recency: { readonly score: number; readonly ageDays: number; readonly type: string };
  readonly confidence: {
    readonly stored: number | null;
    readonly prior: number;
    readonly blended: number;
  };
  readonly blend: number;
  readonly multipliers: {
    readonly quality: number;
    readonly length: number;
    readonly frequency: number;
    readonly canonical: number;
    readonly coActivation: number;
  };
  /** The blend times every multiplier, before the pin. */
  readonly preBoost: number;
  /** Signed: min(PIN_CAP, preBoost + PIN_BOOST) − preBoost for a pinned document, else 0. */
  readonly pinBoost: number;
  readonly compositeScore: number;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** Quality 0 → 0.7, neutral 0.5 → 1, 1 → 1.3. */
const qualityMultiplier = (q: number | null): number => 0.7 + 0.6 * clamp01(q ?? 0.5);
/** Very short documents (under 30 words) count for less: 0.8 at none, 1 from 30 words. */
const lengthMultiplier = (words: number): number => 0.8 + 0.2 * Math.min(1, words / 30);
/** Documents agents keep coming back to: up to +10 % at 50 retrievals. */
const frequencyMultiplier = (n: number): number =>
  1 + 0.1 * Math.min(1, Math.log1p(Math.max(0, n)) / Math.log1p(50));
const canonicalMultiplier = (d: ScoringDoc): number => (d.superseded ? 0.6 : d.canonical ? 1.1 : 1);
/** Co-activated documents: up to +15 % at 10 co-activations. */
const coActivationMultiplier = (n: number): number => 1 + 0.15 * Math.min(1, Math.max(0, n) / 10);

/** Stored confidence blended with the content type's prior (0.7 / 0.3); the prior alone when none. */
function confidenceOf(d: ScoringDoc): Breakdown['confidence'] {
  const prior = TYPE_CONFIDENCE[d.contentType] ?? 0.5;
  const stored = d.confidence === null ? null : clamp01(d.confidence);
  const blended = stored === null ? prior : 0.7 * stored + 0.3 * prior;
  return { stored, prior, blended };
}

/** The composite score of `doc` at `now` under `weights`, with its breakdown. */
export function compositeScore(doc: ScoringDoc, weights: Weights, now: number): Breakdown {
  const relevance = clamp01(doc.searchScore);
  const recency = recencyScore(doc.contentType, doc.effectiveAt, now);
  const age = Math.max(0, (now - doc.effectiveAt) / 86_400_000);
  const confidence = confidenceOf(doc);
  const blend =
    weights.search * relevance +
    weights.recency * recency +
    weights.confidence * confidence.blended;
  const multipliers = {
    quality: qualityMultiplier(doc.quality),
    length: lengthMultiplier(doc.words),
    frequency: frequencyMultiplier(doc.accessCount),
    canonical: canonicalMultiplier(doc),
    coActivation: coActivationMultiplier(doc.coActivations),
  };
  const preBoost =
    blend *
    multipliers.quality *
    multipliers.length *
    multipliers.frequency *
    multipliers.canonical *
    multipliers.coActivation;
  const pinBoost = doc.pinned ? Math.min(PIN_CAP, preBoost + PIN_BOOST) - preBoost : 0;
  return {
    weights,
    relevance,
    recency: { score: recency, ageDays: age, type: doc.contentType },
    confidence,
    blend,
    multipliers,
    preBoost,
    pinBoost,
    compositeScore: preBoost + pinBoost,
  };
}

/** |x| / (1 + |x|): BM25 mapped monotonically into [0, 1), higher is better. */
export function ftsTransform(bm25: number): number {
  const a = Math.abs(bm25);
  if (Number.isNaN(a)) return 0;
  return Number.isFinite(a) ? a / (1 + a) : 1 - Number.EPSILON;
}
