// The memory vault's domain: vault configuration, markdown parsing and fragments, the sync of a
// content root (restricted paths, incremental, deletions deactivate), document access and the
// internal collection. Imports the store, the embedding loop and memory's scrubber; never a
// façade. The scoring (src/vault/scoring) and the query pipeline build on it.
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
export {
  type AccessReport,
  CO_ACCESS_MAX_SET,
  CO_ACCESS_WINDOW_MS,
  recordReads,
} from './access.js';
export { BD_ARGS, BeadsError, findBd, parseIssues, renderIssue } from './beads.js';
export { BEADS_COLLECTION, beadsSync, beadsSyncInput, type BeadsSyncReport } from './beads-sync.js';
export { contentTypeOf } from './content-type.js';
export {
  type DiaryEntry,
  diaryReadInput,
  diaryWriteInput,
  readDiary,
  writeDiary,
} from './diary.js';
export {
  createVaultEmbedWorker,
  fragmentEmbedText,
  type VaultEmbedWorkerOptions,
} from './embed-backlog.js';
export {
  VaultConfigError,
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
export {
  DEFAULT_WATCH_DEBOUNCE_MS,
  DEFAULT_WATCH_POLL_MS,
  startVaultWatch,
  type VaultWatchConfig,
  type VaultWatcher,
  vaultWatchFromEnv,
  type WatchedCollection,
} from './watch.js';
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
  createChatExpander,
  createChatFactExtractor,
  createProviderReranker,
  createQueryStages,
  type DocumentFactExtractor,
  MAX_EXTRACTION_CHARS,
  type RemoteStage,
  vaultExtractionFromEnv,
  type VaultStagesConfig,
  vaultStagesFromEnv,
} from './query/providers/index.js';
export {
  createVaultExtractWorker,
  MAX_EXTRACTION_ATTEMPTS,
  type VaultExtractBacklog,
  type VaultExtractWorkerOptions,
} from './extract-backlog.js';
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
export {
  createVaultContext,
  splitCollections,
  type VaultContext,
  type VaultExtractionState,
  type VaultServiceOptions,
} from './service.js';
export {
  type CausalHit,
  type CausalMark,
  type CompactHit,
  DEFAULT_QUERY_STAGES,
  explainVaultRanking,
  findSimilar,
  findTarget,
  forgetDocument,
  type FullHit,
  HOP_DECAY,
  HOP_PER_ANCHOR,
  HOP_TOTAL,
  intentSearch,
  isConfident,
  lifecycleRestore,
  lifecycleStatus,
  lifecycleSweep,
  memoryRetrieve,
  type MutationAnswer,
  pinDocument,
  queryPlan,
  type QueryStages,
  queryVault,
  type RankItem,
  type RetrieveDeps,
  type RetrieveMode,
  type ScoreBasis,
  searchVault,
  sessionLog,
  snoozeDocument,
  timelineOf,
  type VaultEmbedder,
  type VaultHit,
  VaultVectorsUnavailableError,
  vsearchVault,
} from './retrieve/index.js';
export { indexStats, memoryStats, type VaultStatus, vaultStatus } from './stats.js';
export {
  type DeclaredReport,
  reconcileDeclaredEdges,
  type UnresolvedReference,
} from './declared.js';
export {
  documentEvidenceKey,
  dropDocumentFacts,
  recordDocumentFacts,
  vaultGraphName,
  writeDocumentFacts,
} from './facts.js';
export {
  type KgAnswer,
  type KgFact,
  KG_MAX_ENTITIES,
  KG_MAX_SOURCES,
  KG_MAX_TRIPLES,
  kgQuery,
  kgQueryInput,
  type KgSource,
} from './kg-query.js';
export {
  type DynamicContext,
  getProfile,
  type Listed,
  type Profile,
  type ProfileAnswer,
  type ProfileDocument,
  type ProfileFact,
  profileInput,
  type StaticFacts,
} from './profile.js';
export {
  CAUSAL_SOURCES_PER_CAUSE,
  CAUSAL_TARGETS_PER_WRITE,
  CAUSAL_WITNESSES_PER_EDGE,
  type CausalMatch,
  causalMatch,
  MATCH_CONFIDENCE,
} from './causal.js';
export {
  CAUSAL_DIRECTIONS,
  CAUSAL_EDGE_BUDGET,
  CAUSAL_WITNESSES_SHOWN,
  type CausalLink,
  type CausalStepDirection,
  type CausalTraversal,
  type CausalWitness,
  findCausalLinks,
  findCausalLinksInput,
  legacyWitness,
} from './causal-links.js';
export {
  type BuildGraphsAnswer,
  type BuildGraphsArgs,
  buildGraphs,
  buildGraphsInput,
  GRAPH_TYPES,
} from './graphs.js';
export {
  type EvolutionEntry,
  type EvolutionStatus,
  evolutionStatus,
  type EvolutionStatusArgs,
  evolutionStatusInput,
} from './evolution-status.js';
