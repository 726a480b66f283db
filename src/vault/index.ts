// The vault domain (document memory): configuration, markdown parsing and fragments, the sync of
// a content root (restricted paths, incremental, deletions deactivate), document access, the
// internal collection, the fragment embedding backlog; scoring, the query pipeline and the tool
// input schemas. Other folders import from here, never from the files behind it.
export {
  DEFAULT_VAULT,
  listVaults,
  parseVaults,
  resolveVault,
  VAULT_NAME,
  type VaultConfig,
  vaultConfigFromEnv,
  type VaultEntry,
} from './config.js';
export { contentTypeOf } from './content-type.js';
export {
  createVaultEmbedWorker,
  fragmentEmbedText,
  type VaultEmbedWorkerOptions,
} from './embed-backlog.js';
export {
  VaultDocumentNotFoundError,
  VaultInputError,
  VaultRestrictedPathError,
  VaultUnknownError,
} from './errors.js';
export { splitFragments } from './fragments.js';
export {
  type DocumentText,
  findDocument,
  getDocument,
  type LineWindow,
  MULTI_GET_MAX_BYTES,
  multiGet,
  type MultiGetItem,
  type MultiGetOptions,
  type MultiGetResult,
} from './get.js';
export { compileGlob, isGlob } from './glob.js';
export {
  type InternalDocument,
  type InternalKind,
  INTERNAL_KINDS,
  saveInternal,
  type SavedInternal,
} from './internal.js';
export { fileTitle, parseMarkdown, type ParsedMarkdown } from './markdown.js';
export { assertAllowed, restrictedRule } from './restricted.js';
export { resolveContentRoot, type SyncOptions, type SyncReport, syncVault } from './sync.js';
export { SYNC_REASONS } from './sync-run.js';
export { DEFAULT_WALK_LIMITS, type Skipped, type WalkLimits } from './walk.js';
export {
  type Breakdown,
  compositeScore,
  explainRanking,
  ftsTransform,
  isRecencyQuery,
  rawOrder,
  compositeOrder,
  scoreAll,
  WEIGHT_PROFILES,
  type WeightProfile,
} from './scoring/index.js';
export {
  classifyIntent,
  classifyRoute,
  createFeatureReranker,
  createPrfExpander,
  planClauses,
  runQuery,
  strongSignal,
} from './query/index.js';
export {
  getInput,
  intentSearchInput,
  listVaultsInput,
  memoryForgetInput,
  memoryPinInput,
  memoryRankInput,
  memoryRetrieveInput,
  memorySnoozeInput,
  memoryStatsInput,
  multiGetInput,
  findSimilarInput,
  lifecycleRestoreInput,
  lifecycleSweepInput,
  queryInput,
  queryPlanInput,
  searchInput,
  sessionLogInput,
  timelineInput,
  vaultOnlyInput,
  vaultSyncInput,
  vsearchInput,
} from './tool-schemas.js';
