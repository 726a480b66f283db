// The vault's retrieval, access, mutation and lifecycle operations over the store: what the
// cairn-vault tools run. Other folders import from here (through src/vault/index.ts).
export { type CompactHit, type FullHit, type ScoreBasis, type VaultHit } from './hits.js';
export {
  forgetDocument,
  lifecycleRestore,
  lifecycleStatus,
  lifecycleSweep,
  type MutationAnswer,
  pinDocument,
  snoozeDocument,
} from './lifecycle.js';
export { findSimilar, sessionLog, timelineOf } from './neighbours.js';
export { DEFAULT_QUERY_STAGES, queryVault, type QueryStages } from './query.js';
export { explainVaultRanking, type RankItem } from './rank-explain.js';
export { memoryRetrieve, type RetrieveMode } from './retrieve.js';
export { type CausalHit } from './causal.js';
export { type CausalMark, HOP_DECAY, HOP_PER_ANCHOR, HOP_TOTAL } from './causal-hop.js';
export { intentSearch, queryPlan } from './routes.js';
export {
  type RetrieveDeps,
  searchVault,
  VaultVectorsUnavailableError,
  vsearchVault,
} from './search.js';
export { findTarget, isConfident } from './target.js';
export { type VaultEmbedder } from './vector.js';
