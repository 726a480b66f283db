// The store contract every domain module talks to. Async from day one so a PostgreSQL
// backend can implement it later; nothing here names a driver.

import type { CodeIndex } from './code-index.js';
import type { GraphIndex } from './graph-index.js';
import type { MemoryIndex } from './memory-index.js';
import type { VaultIndex } from './vault-index.js';

export type SqlValue = string | number | bigint | null | Uint8Array;

export type Dialect = 'sqlite' | 'postgres';

export interface RunResult {
  /** Rows changed by the statement. */
  changes: number;
}

/** Plain statements. SQL uses `?` positional parameters only. */
export interface Queryable {
  /** Which SQL dialect the statements run in, for the store's named operations that differ. */
  readonly dialect: Dialect;
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
}

export interface Store extends Queryable {
  /** Full-text and vector search over memory items (dialect-specific, named operations). */
  readonly memoryIndex: MemoryIndex;
  /** BM25 and vector search over code chunks, per collection (named operations). */
  readonly codeIndex: CodeIndex;
  /** Vault documents, fragments, BM25 and vectors over fragments, lifecycle (named operations). */
  readonly vaultIndex: VaultIndex;
  /** The knowledge graph: entities, observations, triples, trigram candidates (named operations). */
  readonly graphIndex: GraphIndex;
  /** Where the data lives, safe to log (a file path, ':memory:', or a URL without password). */
  readonly location: string;
  /**
   * What `openStoreAt` reopens the same database from (another thread's connection): the file
   * path, or the full PostgreSQL URL. May hold a password: never log it.
   */
  readonly locator: string;
  /** The SQL dialect of this backend. */
  readonly dialect: Dialect;
  /**
   * What the core logs once at start about this backend being degraded (PostgreSQL without
   * pgvector: exact vector search, slower); empty when nothing is.
   */
  readonly warnings: readonly string[];
  /**
   * Runs `fn` inside one write transaction (SQLite: `BEGIN IMMEDIATE`), retrying only
   * lock contention with jittered backoff. `fn` may run more than once: keep it free of
   * side effects outside `tx`. Never call the store itself from inside `fn`.
   */
  write<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs `fn` on one consistent read snapshot. */
  read<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Folds the write-ahead log back into the main file (best effort). */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Total time budget for retrying lock contention in `write`, ms. Default 2000. */
  busyBudgetMs?: number;
  /** Per-attempt driver busy timeout, ms. Default 200. */
  busyTimeoutMs?: number;
  /**
   * Refuse (StoreMissingError) instead of creating the file and its folder when the database
   * does not exist: for readers such as the CLI's approvals, audit and agents commands.
   */
  mustExist?: boolean;
}
