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

/** How far a notification reaches: this process only (SQLite) or every process on the database. */
export type SignalReach = 'process' | 'database';

/** Hears a topic: a payload per notification, `null` when notifications may have been missed. */
export type SignalListener = (payload: string | null) => void;

/**
 * Wake-ups for waiters (room long-polls, approval waits, streams). The store stays the source of
 * truth: a listener re-reads what it waits for, and keeps a slow poll for a missed notification.
 */
export interface Signals {
  /**
   * 'process' (SQLite): only this process's subscribers hear it; other processes on the file
   * see the change by polling. 'database' (PostgreSQL): every process on the database hears it.
   */
  readonly reach: SignalReach;
  /**
   * Sends `payload` (small: ids and sequence numbers, never content) to `topic`'s subscribers.
   * With a write transaction's `tx` it is delivered once the transaction commits, never on a
   * rollback; with the store itself (outside a transaction), at once.
   */
  notify(tx: Queryable, topic: string, payload: string): Promise<void>;
  /**
   * Calls `listener` for each notification of `topic` until the returned function is called;
   * with `null` when some may have been missed (PostgreSQL: the listening connection came up or
   * came back after a drop), so the subscriber re-reads.
   */
  subscribe(topic: string, listener: SignalListener): () => void;
}

/** What `Locks.tryRun` did: ran `fn` (and what it returned), or skipped it (held elsewhere). */
export type LockRun<T> = { ran: true; value: T } | { ran: false };

/** How far a lock reaches: this process only (SQLite) or every process on the database. */
export type LockReach = 'process' | 'database';

/** A lock taken by `Locks.tryHold`, kept until `release` (or until its holder dies). */
export interface LockHold {
  /** Gives the lock up; calling it again does nothing. Never throws. */
  release(): Promise<void>;
}

/** Background work that must run once however many processes serve the store. */
export interface Locks {
  /**
   * 'process' (SQLite): a lock keeps out this process's other holders only; each process on
   * the file runs its own passes. 'database' (PostgreSQL, a session advisory lock): every
   * process on the database, and a holder that dies releases the lock with its connection.
   */
  readonly reach: LockReach;
  /**
   * Runs `fn` while holding the lock `name`, or skips it when another holder has it: another
   * run in this process, or (PostgreSQL, an advisory lock) in any process on the database. A
   * holder that dies releases the lock with its connection. `fn` uses the store as usual.
   */
  tryRun<T>(name: string, fn: () => Promise<T>): Promise<LockRun<T>>;
  /**
   * Takes the lock `name` and keeps it until the hold's `release()`, for work whose life is
   * not one function call (an index job); null when another holder has it. On PostgreSQL the
   * lock lives on the store's lock connection, so a process or connection that dies drops it.
   */
  tryHold(name: string): Promise<LockHold | null>;
  /**
   * Whether some holder has `name` now, without taking it: in this process, or (reach
   * 'database') in any process on the database (PostgreSQL reads `pg_locks`).
   */
  isHeld(name: string): Promise<boolean>;
}

/**
 * How a write transaction is kept correct against concurrent writers.
 * - 'serializable' (the default): as if writes ran one at a time. SQLite's single writer gives
 *   it; PostgreSQL runs SERIALIZABLE and retries serialization failures.
 * - 'rows': the transaction is correct under row locks alone, because every decision it makes
 *   is re-checked by the statement that acts on it (a conditional UPDATE whose WHERE states
 *   the precondition, an upsert on a counter row with RETURNING) and it reads no range whose
 *   change by a concurrent writer would make its outcome wrong. PostgreSQL runs it READ
 *   COMMITTED (a blocked statement re-checks its WHERE on the row's newest version), so
 *   writers of different rows never roll each other back; SQLite is unchanged. Such a write
 *   must not change indexed search documents (their postings are not flushed in it).
 */
export type WriteLocking = 'serializable' | 'rows';

export interface WriteOptions {
  /** Default 'serializable'. */
  locking?: WriteLocking;
}

export interface Store extends Queryable {
  /** Wake-ups delivered on commit: in-process on SQLite, LISTEN/NOTIFY on PostgreSQL. */
  readonly signals: Signals;
  /** Run-once locks for background work (sweeps, backlogs). */
  readonly locks: Locks;
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
   * What the core logs once at start about this backend (PostgreSQL whose collation does not
   * order text as SQLite does); empty when nothing is off.
   */
  readonly warnings: readonly string[];
  /**
   * What a process with an embedder logs once at start about vector search being degraded
   * (PostgreSQL without pgvector: exact, slower); empty when it is not.
   */
  readonly vectorWarnings: readonly string[];
  /**
   * Runs `fn` inside one write transaction (SQLite: `BEGIN IMMEDIATE`), retrying only
   * lock contention with jittered backoff. `fn` may run more than once: keep it free of
   * side effects outside `tx`. Never call the store itself from inside `fn`.
   */
  write<T>(fn: (tx: Queryable) => Promise<T>, options?: WriteOptions): Promise<T>;
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
