// The store: the one place that opens databases. Domain modules import only from here.
export {
  countSessions,
  delegationBetween,
  type DelegationRow,
  delegationsOf,
  insertDelegation,
  insertSession,
  insertToolCall,
  listSessionRows,
  type NewDelegationRow,
  type NewSessionRow,
  type NewToolCallRow,
  sessionById,
  type SessionFilter,
  type SessionRow,
  type SessionRowCounts,
  setSessionSummary,
  toolCallById,
  type ToolCallRow,
  toolCallsOf,
  updateDelegationRow,
  updateSessionRow,
} from './agent-sessions.js';
export type { CodeFilter } from './code-filter.js';
export {
  countEntityRows,
  deleteEntityRow,
  entityRowById,
  type EntityRow,
  entityRowsWhere,
  type EntityWhere,
  insertEntityRow,
  liveBoardTask,
  maxEntityColumn,
  updateEntityRow,
} from './entities.js';
export type { CodeIndex, CodeTextHit } from './code-index.js';
export type { CodeVectorHit } from './code-vectors.js';
export { CODE_FIELDS } from './code-postings.js';
export { isBusyError, StoreBusyError, StoreMissingError } from './errors.js';
export {
  MigrateStoreError,
  type MigrateStoreOptions,
  type MigrateStoreReport,
  migrateSqliteToPg,
} from './pg/migrate-store.js';
export type { LeftTable } from './pg/migrate-plan.js';
export type { TableCheck } from './pg/migrate-verify.js';
export { queryTerms, toFtsQuery } from './fts-query.js';
export type {
  GraphEntityRow,
  GraphIndex,
  GraphTriple,
  GraphTripleRow,
  NewGraphEntity,
} from './graph-index.js';
export {
  entityNamesBySlug,
  factEvidence,
  type FactEvidenceRow,
  factTriples,
  type FactTripleInput,
  type FactTripleRow,
  replaceDocumentFacts,
  VAULT_DOC,
} from './graph-facts.js';
export type { FtsHit, MemoryIndex, SqlFilter, VectorHit } from './memory-index.js';
export {
  type MemoryBacklogRow,
  memoryEmbedBacklog,
  memoryEmbedPending,
  memoryItemsByRowids,
  newestMemoryRowid,
  recentMemoryItems,
} from './memory-items.js';
export {
  bothFilters,
  countMemoryItems,
  eitherFilter,
  insertObservation,
  listObservations,
  type NewObservationRow,
  observationByKey,
  observationFilter,
  type ObservationRow,
  observationsBeside,
  observationsByIds,
  observationsByRowids,
  observationsOfSession,
  type ObservationSqlFilter,
  supersedeObservation,
  tagsFilter,
} from './observations.js';
export { scopeKey, type ScopePartition } from './scope-key.js';
export { cairnHome, type PathEnv, resolveDbPath } from './paths.js';
export { openSqliteStore } from './sqlite.js';
export {
  isPgUrl,
  openStore,
  openStoreAt,
  type OpenStoreOptions,
  shareableDbUrl,
  type ShareableDbUrl,
} from './open.js';
export { openPgStore } from './pg/pg-store.js';
export { StoreUnsupportedError } from './pg/pg-unported.js';
export { IN_LIST_MAX, inChunks, inList } from './sql-lists.js';
export {
  activeDocumentContents,
  causalEdgeEnds,
  type CausalDocumentRow,
  causalWitnessCounts,
  causeNamingDocuments,
  causeStatingDocuments,
  type CausalWitnessInput,
  deleteCausalEdges,
  replaceCausalWitnesses,
} from './vault-causal-links.js';
export {
  causalStep,
  type CausalStepRow,
  causalWitnesses,
  type CausalWitnessRow,
} from './vault-causal-read.js';
export type { CoAccessOptions } from './vault-coactivation.js';
export {
  countActiveEdges,
  removeVaultEdges,
  upsertVaultEdge,
  type VaultEdgeInput,
  type VaultEdgeOrigin,
  type VaultEdgeType,
  type VaultNeighbour,
  vaultNeighbours,
} from './vault-edges.js';
export {
  clearExtraction,
  documentsToExtract,
  documentUnchanged,
  extractionTotals,
  pendingExtractions,
  recordExtraction,
  type VaultExtractionOutcome,
  type VaultExtractionTodo,
  type VaultExtractionTotals,
} from './vault-extractions.js';
export {
  activeDocumentsByKey,
  DECLARED_CAUSAL_KEYS,
  declarationMayName,
  declaredCausalEdges,
  type DeclaringDocument,
  declaringDocuments,
  type DocumentKey,
  eligibleCausalStep,
} from './vault-causal.js';
export {
  countCurrentTriples,
  profileDocuments,
  type ProfileDocumentQuery,
  type ProfileDocumentRow,
  profileFacts,
  type ProfileFactRow,
  readVaultProfile,
  type VaultProfileRow,
  writeVaultProfile,
} from './vault-profile.js';
export {
  activeChain,
  type BuiltEdge,
  builtEdges,
  deleteVaultEdges,
  vectorCoverage,
} from './vault-graph-build.js';
export {
  logVaultEvolution,
  readVaultNotes,
  type VaultEvolutionInput,
  type VaultEvolutionRow,
  type VaultNote,
  vaultEvolutionOf,
  vaultNoteKeywords,
  writeVaultNote,
} from './vault-notes.js';
export type { VaultIndex } from './vault-index.js';
export type { VaultCollectionStats, VaultTimeline } from './vault-lifecycle.js';
export { VAULT_FIELD_WEIGHTS } from './vault-postings.js';
export {
  type FragmentKind,
  INTERNAL_COLLECTION,
  type VaultCollectionRow,
  type VaultDocumentInput,
  type VaultDocumentMeta,
  type VaultDocumentRow,
  type VaultFilter,
  type VaultFragmentInput,
  type VaultFragmentRow,
  type VaultFragmentToEmbed,
  type VaultOrigin,
  type VaultSyncState,
  type VaultTextHit,
  type VaultVectorHit,
} from './vault-types.js';
export { SIGNAL_SAFETY_POLL_MS } from './signal-hub.js';
export {
  nextInsertionSeq,
  ROW_LOCKS,
  rowLockClause,
  type SeqTable,
  skipLockedClause,
} from './write-counters.js';
export type {
  Dialect,
  LockHold,
  LockReach,
  LockRun,
  Locks,
  Queryable,
  RunResult,
  SignalListener,
  SignalReach,
  Signals,
  SqlValue,
  Store,
  StoreOptions,
  WriteLocking,
  WriteOptions,
} from './types.js';
