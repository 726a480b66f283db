// Observation memory: observations (the spec's memory resources) stored as memory items,
// scrubbed, with provenance; listed, read by id, laid on a timeline, injected within a token
// budget, and searched with facts by memory's engine.
export { INJECT_TOKENS, type InjectInput } from './inject.js';
export {
  type GotObservations,
  type InjectedContext,
  type InjectedItem,
  type InjectOmission,
  type ListStatus,
  OBSERVATION_TYPES,
  type Observation,
  type ObservationList,
  type ObservationTimeline,
  type ObservationType,
  OMIT_REASONS,
  type OmitReason,
  type SessionObservations,
  type StoredObservation,
  TYPE_WEIGHTS,
} from './model.js';
export {
  LIST_LIMIT,
  type ListInput,
  type ObservationQuery,
  TIMELINE_DEPTH,
  type TimelineInput,
} from './read.js';
export {
  type MemorySearchHit,
  type MemorySearchInput,
  type MemorySearchResult,
  type MemorySearchStatus,
  SEARCH_LIMIT,
} from './search.js';
export {
  getMemoriesInput,
  injectContextInput,
  listMemoriesInput,
  memoryTimelineInput,
  observationOf,
  queryOf,
  searchMemoryInput,
  storeMemoryInput,
} from './schemas.js';
export { createObservations, type Observations, type ObservationsOptions } from './service.js';
export type { ObservationInput } from './write.js';
