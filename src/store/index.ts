// The store: the one place that opens databases. Domain modules import only from here.
export type { CodeFilter } from './code-filter.js';
export type { CodeIndex, CodeTextHit } from './code-index.js';
export type { CodeVectorHit } from './code-vectors.js';
export { CODE_FIELDS } from './code-postings.js';
export { isBusyError, StoreBusyError, StoreMissingError } from './errors.js';
export { queryTerms, toFtsQuery } from './fts-query.js';
export type { FtsHit, MemoryIndex, SqlFilter, VectorHit } from './memory-index.js';
export { scopeKey, type ScopePartition } from './scope-key.js';
export { cairnHome, type PathEnv, resolveDbPath } from './paths.js';
export { openSqliteStore } from './sqlite.js';
export type { Queryable, RunResult, SqlValue, Store, StoreOptions } from './types.js';
