// The indexer's public face: createCodeIndex and its types. Other folders import from here
// (through src/code/index.ts), never from the files behind it.
export { createCodeIndex, DEFAULT_BATCH } from './code-index.js';
export { DEFAULT_DEPTH, MAX_BRANCHES, MAX_DEPTH } from './params.js';
export { provenanceJson, recordProvenance } from './provenance-row.js';
export {
  clearIndexInput,
  DEFAULT_WAIT_SECONDS,
  indexParamsOf,
  indexRepoInput,
  type IndexRepoInput,
  indexStatusInput,
  MAX_WAIT_SECONDS,
} from './schemas.js';
export type {
  BatchLimits,
  ClearResult,
  CodeIndex,
  CodeIndexOptions,
  CollectionState,
  CollectionStatus,
  FreshnessReport,
  GitBranchPlan,
  GitIndexPlan,
  IndexParams,
  IndexStatus,
  JobError,
  JobPhase,
  JobState,
  JobStatus,
  StartResult,
  WaitOptions,
} from './types.js';
