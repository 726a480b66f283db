// Vault scoring: recency by content type, the composite score with its breakdown, the raw and
// composite orderings and memory_rank's explanation. Pure computation: no store, no I/O.
export {
  type Breakdown,
  compositeScore,
  ftsTransform,
  PIN_BOOST,
  PIN_CAP,
  type ScoringDoc,
  WEIGHT_PROFILES,
  type WeightProfile,
  type Weights,
} from './composite.js';
export {
  type Candidate,
  compositeOrder,
  explainRanking,
  type RankedExplanation,
  rawOrder,
  type Scored,
  scoreAll,
} from './rank.js';
export {
  ageDays,
  CONTENT_TYPES,
  type ContentType,
  halfLifeDays,
  isRecencyQuery,
  RECENCY_HALF_LIFE_DAYS,
  recencyScore,
} from './recency.js';
