// Reranking, the query pipeline's last model stage, as an interface with a deterministic
// default: a linear model over features of the query and each candidate fragment (term
// coverage in the text and in the title, phrase and proximity, the channel scores and the
// fusion position). A provider (a cross-encoder behind a rerank endpoint) implements the same.
import { queryTerms, tokenize } from '../../search/index.js';

export interface RerankCandidate {
  readonly id: number;
  readonly title: string;
  readonly text: string;
  /** Raw BM25 transform in [0, 1), 0 when the fragment came from vectors only. */
  readonly bm25: number;
  /** Cosine, or null without a vector channel. */
  readonly cosine: number | null;
  /** 1-based position after fusion. */
  readonly fusedRank: number;
}

export interface RerankInput {
  readonly query: string;
  readonly intent?: string | undefined;
  readonly candidates: readonly RerankCandidate[];
}

export interface Reranked {
  readonly id: number;
  /** The reranker's score (higher is better); scale is the reranker's own. */
  readonly score: number;
  /** The feature values behind it (empty for a provider that does not expose them). */
  readonly features: Readonly<Record<string, number>>;
}

/** A reranker's answer: a score per candidate and what `stages.rerank` says about the run. */
export interface Reranking {
  readonly results: readonly Reranked[];
  /** `features`, a provider's `kind:model`, or the fallback that ran and why. */
  readonly stage: string;
}

export interface Reranker {
  readonly name: string;
  rerank(input: RerankInput): Promise<Reranking>;
}

/** The default model's weights; the vault eval measures them (docs/benchmarks.md). */
export const FEATURE_WEIGHTS = {
  coverage: 0.3,
  titleCoverage: 0.15,
  phrase: 0.1,
  proximity: 0.1,
  bm25: 0.15,
  cosine: 0.05,
  fused: 0.15,
  intent: 0.1,
} as const;
export type Feature = keyof typeof FEATURE_WEIGHTS;

/** Smallest window of token positions holding every term of `wanted` that occurs at all. */
function proximity(terms: readonly string[], wanted: ReadonlySet<string>): number {
  const present = new Set(terms.filter((t) => wanted.has(t)));
  if (present.size < 2) return present.size === 1 ? 1 : 0;
  const last = new Map<string, number>();
  let best = Number.POSITIVE_INFINITY;
  terms.forEach((t, i) => {
    if (!present.has(t)) return;
    last.set(t, i);
    if (last.size === present.size) best = Math.min(best, i - Math.min(...last.values()) + 1);
  });
  return present.size / best;
}

/** Share of the query's adjacent term pairs that occur adjacent in the text. */
function phrase(q: readonly string[], terms: readonly string[]): number {
  if (q.length < 2) return 0;
  const pairs = new Set(terms.slice(1).map((t, i) => `${terms[i]} ${t}`));
  let hits = 0;
  for (let i = 1; i < q.length; i++) if (pairs.has(`${q[i - 1]} ${q[i]}`)) hits += 1;
  return hits / (q.length - 1);
}

const coverage = (wanted: readonly string[], have: ReadonlySet<string>): number =>
  wanted.length === 0 ? 0 : wanted.filter((t) => have.has(t)).length / wanted.length;

/** The features of one candidate for query terms `q` (and intent terms). */
export function featuresOf(
  q: readonly string[],
  intentTerms: readonly string[],
  c: RerankCandidate,
): Record<Feature, number> {
  const terms = tokenize(c.text).map((t) => t.term);
  const have = new Set(terms);
  const title = new Set(tokenize(c.title).map((t) => t.term));
  return {
    coverage: coverage(q, have),
    titleCoverage: coverage(q, title),
    phrase: phrase(q, terms),
    proximity: proximity(terms, new Set(q)),
    bm25: c.bm25,
    cosine: Math.max(0, c.cosine ?? 0),
    fused: 1 / c.fusedRank,
    intent: coverage(intentTerms, new Set([...have, ...title])),
  };
}

/** The deterministic reranker: Σ FEATURE_WEIGHTS · feature. */
export function createFeatureReranker(
  weights: Record<Feature, number> = FEATURE_WEIGHTS,
): Reranker {
  return {
    name: 'features',
    rerank: (input) => {
      const q = queryTerms(input.query);
      const intentTerms = input.intent === undefined ? [] : queryTerms(input.intent);
      const out = input.candidates.map((c) => {
        const features = featuresOf(q, intentTerms, c);
        let score = 0;
        for (const [k, v] of Object.entries(features)) score += weights[k as Feature] * v;
        return { id: c.id, score, features };
      });
      return Promise.resolve({ results: out, stage: 'features' });
    },
  };
}
