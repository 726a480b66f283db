// The SQLite backend (better-sqlite3): WAL, busy retry, migrations at open. With sqlite-open.ts
// the only code in the project that touches the driver; everything above sees the async Store
// contract.
import type Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

import type { RankedDoc } from '../search/index.js';
import { type CodeIndex, createCodeIndex } from './code-index.js';
import { isBusyError, StoreBusyError } from './errors.js';
import { createGraphIndex, type GraphIndex } from './graph-index.js';
import { createMemoryIndex, type MemoryIndex } from './memory-index.js';
import { MIGRATIONS } from './migrations.js';
import type { PostingsCache } from './postings-cache.js';
import { PostingsEngine } from './postings-engine.js';
import { createLocalLocks, createLocalSignals, type LocalSignals } from './signal-hub.js';
import { singleFlight } from './single-flight.js';
import {
  applyMigrations,
  backoffMs,
  type Driver,
  openDriver,
  retryBusy,
  sleep,
} from './sqlite-open.js';
import type {
  Locks,
  Queryable,
  RunResult,
  Signals,
  SqlValue,
  Store,
  StoreOptions,
} from './types.js';
import { createVaultIndex, type VaultIndex } from './vault-index.js';

export { applyMigrations } from './sqlite-open.js';

/** Dirty documents of a backlog re-indexed per write transaction and corpus at most. */
const FLUSH_PER_WRITE = 2_000;

/**
 * Dirty items the background drain re-indexes per transaction: small enough that a tool call
 * queued behind one waits tens of milliseconds, and another process's writer no longer.
 */
const DRAIN_PER_STEP = 250;

/** Most of the file read through mmap (virtual address space, not a heap allocation). */
const MMAP_BYTES = 1024 * 1024 * 1024;

class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  readonly location: string;
  get locator(): string {
    return this.location;
  }
  readonly warnings: readonly string[] = [];
  readonly vectorWarnings: readonly string[] = [];
  readonly #db: Driver;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #budgetMs: number;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  readonly #tx: Queryable;
  readonly #postings = new PostingsEngine();
  readonly #draining = singleFlight(() => this.#drain());
  readonly memoryIndex: MemoryIndex;
  readonly codeIndex: CodeIndex;
  readonly vaultIndex: VaultIndex;
  readonly graphIndex: GraphIndex;
  readonly #local: LocalSignals;
  /** In-process: other processes on the file keep polling it, as they always did. */
  readonly signals: Signals;
  /** In-process: each process on the file runs its own background work, one run at a time. */
  readonly locks: Locks = createLocalLocks();

  constructor(db: Driver, location: string, budgetMs: number) {
    this.#db = db;
    this.#local = createLocalSignals(() => this.#db.inTransaction);
    this.signals = this.#local.signals;
    this.location = location;
    this.#budgetMs = budgetMs;
    this.#tx = {
      dialect: 'sqlite',
      all: <T>(sql: string, params?: readonly SqlValue[]) =>
        Promise.resolve(this.#all<T>(sql, params)),
      get: <T>(sql: string, params?: readonly SqlValue[]) =>
        Promise.resolve(this.#get<T>(sql, params)),
      run: (sql: string, params?: readonly SqlValue[]) => Promise.resolve(this.#run(sql, params)),
    };
    const postings = this.#postings;
    this.memoryIndex = createMemoryIndex(this, {
      rank: async (query, scopeKeys, limit) => {
        const ranked = await this.read((tx) => postings.memory.rank(tx, query, scopeKeys, limit));
        // Postings lag the items (FTS5 ranks this time): index the backlog in the background.
        if (ranked === null) void this.drainPostings();
        return ranked;
      },
    });
    this.codeIndex = createCodeIndex(this, (terms, collectionIds, k) =>
      this.#rankCorpus(postings.code, terms, collectionIds, k),
    );
    this.vaultIndex = createVaultIndex(this, (terms, collectionIds, k) =>
      this.#rankCorpus(postings.vault, terms, collectionIds, k),
    );
    this.graphIndex = createGraphIndex(async (terms, graphId) => {
      const { ids, backlog } = await this.read(async (tx) => {
        const dirty = await postings.graph.hasBacklog(tx);
        return {
          ids: dirty ? null : await postings.graph.matchAll(tx, terms, [graphId]),
          backlog: dirty,
        };
      });
      if (backlog) void this.drainPostings();
      return ids;
    });
  }

  /** Ranks one corpus on a read snapshot; a backlog (changed past a store write) drains. */
  async #rankCorpus(
    cache: PostingsCache,
    terms: readonly string[],
    partitions: readonly number[],
    k: number,
  ): Promise<{ hits: RankedDoc[]; matched: number }> {
    const { ranked, backlog } = await this.read(async (tx) => ({
      ranked: await cache.rank(tx, terms, partitions, k),
      backlog: await cache.hasBacklog(tx),
    }));
    if (backlog) void this.drainPostings();
    return ranked;
  }

  /** Whether some corpus has documents its postings do not hold yet. */
  hasPostingsBacklog(): Promise<boolean> {
    return this.read((tx) => this.#postings.hasBacklog(tx));
  }

  /**
   * Starts (unless running) indexing every dirty document in small write transactions,
   * yielding the connection between them; resolves when none is left or the store closed.
   * A step that finds the database busy is retried later; another fault ends the drain (the
   * next search that finds a backlog starts it again).
   */
  drainPostings(): Promise<void> {
    return this.#draining.start();
  }

  async #drain(): Promise<void> {
    for (let attempt = 0; !this.#closed;) {
      // An unref'd pause: a process with nothing else to do may exit mid-drain (the backlog
      // stays marked in the file and drains on a later open).
      await new Promise((r) => setTimeout(r, attempt === 0 ? 0 : backoffMs(attempt) * 4).unref());
      try {
        const { flushed } = await this.#exclusive(() =>
          this.#transaction('BEGIN IMMEDIATE', () => Promise.resolve(), DRAIN_PER_STEP),
        );
        if (flushed === 0) return;
        attempt = 0;
      } catch (err) {
        if (!(err instanceof StoreBusyError) || this.#closed) return;
        attempt += 1;
      }
    }
  }

  #prepare(sql: string): Database.Statement {
    let stmt = this.#statements.get(sql);
    if (stmt === undefined) {
      stmt = this.#db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  #all<T>(sql: string, params: readonly SqlValue[] = []): T[] {
    return this.#prepare(sql).all(...params) as T[];
  }

  #get<T>(sql: string, params: readonly SqlValue[] = []): T | undefined {
    return this.#prepare(sql).get(...params) as T | undefined;
  }

  #run(sql: string, params: readonly SqlValue[] = []): RunResult {
    return { changes: this.#prepare(sql).run(...params).changes };
  }

  /** Serialises use of the one connection: an awaiting transaction must not interleave. */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('store is closed'));
    const next = this.#queue.then(fn, fn);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.#exclusive(() => Promise.resolve(this.#all<T>(sql, params)));
  }

  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.#exclusive(() => Promise.resolve(this.#get<T>(sql, params)));
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    return this.#exclusive(() => Promise.resolve(this.#run(sql, params)));
  }

  async write<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const { result } = await this.#exclusive(() =>
      this.#transaction('BEGIN IMMEDIATE', fn, FLUSH_PER_WRITE),
    );
    return result;
  }

  async read<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const { result } = await this.#exclusive(() => this.#transaction('BEGIN', fn, 0));
    return result;
  }

  /**
   * Runs `fn` in one transaction, retrying it while the database is busy. A write transaction
   * also re-indexes the documents it changed (see PostingsEngine.flush: up to `flushMax` per
   * corpus) before it commits (`flushed`).
   */
  async #transaction<T>(
    begin: string,
    fn: (tx: Queryable) => Promise<T>,
    flushMax: number,
  ): Promise<{ result: T; flushed: number }> {
    const deadline = Date.now() + this.#budgetMs;
    for (let attempt = 0; ; attempt++) {
      try {
        this.#db.exec(begin);
        const postings = flushMax > 0 ? await this.#postings.begin(this.#tx) : undefined;
        const result = await fn(this.#tx);
        // Documents the triggers marked dirty are re-indexed before the write becomes visible.
        const flushed = postings === undefined ? 0 : await postings.flush(this.#tx, flushMax);
        this.#db.exec('COMMIT');
        postings?.committed();
        this.#local.committed();
        return { result, flushed };
      } catch (err) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        this.#local.rolledBack();
        if (!isBusyError(err)) throw err;
        if (Date.now() >= deadline) throw new StoreBusyError(err);
        await sleep(backoffMs(attempt));
      }
    }
  }

  checkpoint(): Promise<void> {
    return this.#exclusive(() => {
      try {
        this.#db.pragma('wal_checkpoint(TRUNCATE)');
      } catch (err) {
        if (!isBusyError(err)) throw err;
      }
      return Promise.resolve();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.checkpoint().catch(() => undefined);
    await this.#exclusive(() => {
      this.#closed = true;
      this.#statements.clear();
      this.#db.close();
      return Promise.resolve();
    }).catch(() => undefined);
  }
}

/**
 * Opens (creating if needed, unless `mustExist`) one SQLite database file in WAL mode and
 * brings its schema up to date. Several processes may open the same file at once.
 * @throws StoreMissingError with `mustExist` when there is no file; the driver's error when
 * the file cannot be opened or migrated.
 */
export async function openSqliteStore(
  location: string,
  options: StoreOptions = {},
): Promise<Store> {
  const budgetMs = options.busyBudgetMs ?? 2000;
  const db = openDriver(location, options.mustExist === true);
  try {
    sqliteVec.load(db);
    db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 200)}`);
    await retryBusy(budgetMs * 5, () => db.pragma('journal_mode = WAL'));
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Read through a memory map instead of read() into the 2 MB page cache: FTS ranking and
    // vec0's KNN scan touch most of a large database per query (2× faster at 100k items).
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    await retryBusy(budgetMs * 5, () => applyMigrations(db, MIGRATIONS));
  } catch (err) {
    db.close();
    throw err;
  }
  const store = new SqliteStore(db, location, budgetMs);
  // Documents from before a corpus's migration (or written past the store) are indexed in the
  // background.
  if (await store.hasPostingsBacklog()) void store.drainPostings();
  return store;
}
