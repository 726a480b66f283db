// The vault's query pipeline: classification (intent, route), multi-topic plans, expansion
// and reranking as interfaces with deterministic defaults, and the pipeline over injected
// channels. No store, no I/O of its own.
export {
  type Classified,
  classifyIntent,
  classifyRoute,
  type Intent,
  INTENTS,
  type Route,
  ROUTES,
} from './classify.js';
export {
  createNoExpander,
  createPrfExpander,
  type ExpandedQuery,
  type Expansion,
  type ExpansionInput,
  type PrfOptions,
  type QueryExpander,
} from './expand.js';
export {
  DEFAULT_CANDIDATE_LIMIT,
  type QueryChannels,
  QUERY_FUSION,
  type QueryFusion,
  type QueryHit,
  type QueryInput,
  type QueryOutcome,
  type QueryStages,
  QUERY_RRF_K,
  runQuery,
  type StageReport,
  STRONG_SIGNAL_GAP,
  STRONG_SIGNAL_SCORE,
  strongSignal,
  type TextHit,
  VECTOR_LIST_WEIGHT,
  type VectorHit,
  type VectorLeg,
} from './pipeline.js';
export { MAX_CLAUSES, planClauses } from './plan.js';
export {
  createFeatureReranker,
  type Feature,
  FEATURE_WEIGHTS,
  featuresOf,
  type Reranked,
  type Reranking,
  type RerankCandidate,
  type Reranker,
  type RerankInput,
} from './rerank.js';
