// The PostgreSQL backend (node-postgres pool): the same async Store contract as SQLite. Writes
// run SERIALIZABLE (the guarantee SQLite's single writer gives the domains: caps), or READ
// COMMITTED under row locks where the domain asks ('rows': claims, room sequence numbers,
// approval decisions), and are retried on serialization failures and deadlocks with jittered
// backoff.
// Each write indexes the documents it changed in the BM25 postings before it commits.
import pg from 'pg';

import { type CodeIndex, createCodeIndex } from '../code-index.js';
import { StoreBusyError, StoreMissingError } from '../errors.js';
import type { GraphIndex } from '../graph-index.js';
import type { MemoryIndex } from '../memory-index.js';
import { MIGRATIONS } from '../migrations.js';
import { PostingsEngine } from '../postings-engine.js';
import { singleFlight } from '../single-flight.js';
import { backoffMs, sleep } from '../sqlite-open.js';
import type {
  Queryable,
  RunResult,
  SqlValue,
  Store,
  StoreOptions,
  WriteOptions,
} from '../types.js';
import { createVaultIndex, type VaultIndex } from '../vault-index.js';
import { CODE_VECTORS, MEMORY_VECTORS, VAULT_VECTORS, type VecCorpus } from '../vector-tables.js';
import { checkCollation } from './pg-collation.js';
import { isRetryablePgError, redactUrl } from './pg-errors.js';
import { createPgLocks, type PgLocks } from './pg-locks.js';
import { migratePg } from './pg-migrate.js';
import {
  createPgGraphIndex,
  createPgMemoryIndex,
  pgCorpusRank,
  PgSearchReads,
} from './pg-search.js';
import { createPgSignals, type PgSignals } from './pg-signals.js';
import { pgPlaceholders } from './pg-sql.js';
import { createPgVectorTables, preparePgVectors, type PgVectorSupport } from './pg-vectors.js';

/** Dirty documents of a backlog re-indexed per write transaction and corpus at most. */
const FLUSH_PER_WRITE = 2_000;
/** Dirty documents the background drain re-indexes per transaction (as SQLite). */
const DRAIN_PER_STEP = 250;
/** Busy steps in a row after which the drain stops (the next search starts it again). */
const DRAIN_MAX_BUSY = 8;

const INT8 = 20;
const NUMERIC = 1700;

/** BIGINT and NUMERIC read as JavaScript numbers (timestamps in ms, counts, sums). */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC
      ? (v: string): number => Number(v)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

type Client = pg.Pool | pg.PoolClient;

/**
 * A parameter as node-postgres takes it. PostgreSQL text cannot hold U+0000: it is stored as
 * U+FFFD (the replacement character), the one place the backends differ in what they keep.
 */
export function toParam(v: SqlValue): unknown {
  if (typeof v === 'string') return v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v;
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Uint8Array && !Buffer.isBuffer(v))
    return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v;
}

function queryable(client: Client): Queryable {
  const query = async <T>(sql: string, params: readonly SqlValue[] = []) =>
    client.query<T & pg.QueryResultRow>(pgPlaceholders(sql), params.map(toParam));
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params?: readonly SqlValue[]) => (await query<T>(sql, params)).rows,
    get: async <T>(sql: string, params?: readonly SqlValue[]) =>
      (await query<T>(sql, params)).rows[0],
    run: async (sql: string, params?: readonly SqlValue[]): Promise<RunResult> => ({
      changes: (await query(sql, params)).rowCount ?? 0,
    }),
  };
}

class PgStore implements Store {
  readonly dialect = 'postgres' as const;
  readonly location: string;
  readonly locator: string;
  readonly warnings: readonly string[];
  readonly vectorWarnings: readonly string[];
  readonly memoryIndex: MemoryIndex;
  readonly codeIndex: CodeIndex;
  readonly vaultIndex: VaultIndex;
  readonly graphIndex: GraphIndex;
  readonly #pool: pg.Pool;
  readonly #direct: Queryable;
  readonly #budgetMs: number;
  readonly #postings = new PostingsEngine();
  readonly #draining = singleFlight(() => this.#drain());
  readonly signals: PgSignals;
  readonly locks: PgLocks;
  #closed = false;

  constructor(
    pool: pg.Pool,
    url: string,
    budgetMs: number,
    vectors: PgVectorSupport,
    warnings: readonly string[],
  ) {
    this.#pool = pool;
    this.signals = createPgSignals(url);
    this.#direct = queryable(pool);
    this.locks = createPgLocks(url, this.#direct);
    this.location = redactUrl(url);
    this.locator = url;
    this.#budgetMs = budgetMs;
    this.warnings = warnings;
    this.vectorWarnings = vectors.warning === undefined ? [] : [vectors.warning];
    const tables = (corpus: VecCorpus) => createPgVectorTables(this, corpus, vectors.mode);
    const reads = new PgSearchReads(this, this.#postings, () => this.drainPostings());
    this.codeIndex = createCodeIndex(
      this,
      pgCorpusRank(reads, this.#postings.code),
      tables(CODE_VECTORS),
    );
    this.vaultIndex = createVaultIndex(
      this,
      pgCorpusRank(reads, this.#postings.vault),
      tables(VAULT_VECTORS),
    );
    this.memoryIndex = createPgMemoryIndex(this, reads, tables(MEMORY_VECTORS));
    this.graphIndex = createPgGraphIndex(reads);
  }

  /** Whether some corpus has documents its postings do not hold yet. */
  hasPostingsBacklog(): Promise<boolean> {
    return this.read((tx) => this.#postings.hasBacklog(tx));
  }

  /**
   * Starts (unless running) indexing every dirty document in small write transactions;
   * resolves when none is left, the store closed, the database stayed busy DRAIN_MAX_BUSY
   * steps in a row, or a step failed otherwise (the next search that finds a backlog starts
   * it again).
   */
  drainPostings(): Promise<void> {
    return this.#draining.start();
  }

  async #drain(): Promise<void> {
    for (let busy = 0; !this.#closed && busy < DRAIN_MAX_BUSY;) {
      try {
        const { flushed } = await this.#transaction(
          'BEGIN ISOLATION LEVEL SERIALIZABLE',
          () => Promise.resolve(),
          { retry: true, flushMax: DRAIN_PER_STEP },
        );
        if (flushed === 0) return;
        busy = 0;
      } catch (err) {
        if (!(err instanceof StoreBusyError)) return;
        busy += 1;
        await sleep(backoffMs(busy) * 4);
      }
    }
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.#direct.all<T>(sql, params);
  }

  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.#direct.get<T>(sql, params);
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
    return this.#direct.run(sql, params);
  }

  async write<T>(fn: (tx: Queryable) => Promise<T>, options?: WriteOptions): Promise<T> {
    // Row-locked writes touch no indexed documents: no postings work, so no corpus reads.
    if (options?.locking === 'rows') {
      const begin = 'BEGIN ISOLATION LEVEL READ COMMITTED';
      return (await this.#transaction(begin, fn, { retry: true, flushMax: 0 })).result;
    }
    const begin = 'BEGIN ISOLATION LEVEL SERIALIZABLE';
    return (await this.#transaction(begin, fn, { retry: true, flushMax: FLUSH_PER_WRITE })).result;
  }

  async read<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const begin = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
    return (await this.#transaction(begin, fn, { retry: false, flushMax: 0 })).result;
  }

  /**
   * Runs `fn` in one transaction; a write (`retry`) is retried on serialization failures and
   * deadlocks, and with `flushMax` > 0 re-indexes the documents it changed
   * (PostingsWrite.flush: up to `flushMax` older ones per corpus) before it commits (`flushed`).
   */
  async #transaction<T>(
    begin: string,
    fn: (tx: Queryable) => Promise<T>,
    { retry, flushMax }: { retry: boolean; flushMax: number },
  ): Promise<{ result: T; flushed: number }> {
    if (this.#closed) throw new Error('store is closed');
    const deadline = Date.now() + this.#budgetMs;
    for (let attempt = 0; ; attempt++) {
      const client = await this.#pool.connect();
      try {
        await client.query(begin);
        const tx = queryable(client);
        const postings = flushMax > 0 ? await this.#postings.begin(tx) : undefined;
        const result = await fn(tx);
        const flushed = postings === undefined ? 0 : await postings.flush(tx, flushMax);
        await client.query('COMMIT');
        postings?.committed();
        return { result, flushed };
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (!retry || !isRetryablePgError(err)) throw err;
        if (Date.now() >= deadline) throw new StoreBusyError(err);
      } finally {
        client.release();
      }
      await sleep(backoffMs(attempt));
    }
  }

  checkpoint(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#draining.settled();
    await Promise.all([this.signals.close(), this.locks.close()]);
    await this.#pool.end();
  }
}

/** A reader's refusal of a database Cairn never migrated (the PostgreSQL `mustExist`). */
async function mustHaveSchema(client: pg.PoolClient, url: string): Promise<void> {
  const { rows } = await client.query<{ t: string | null }>(
    "SELECT to_regclass('schema_migrations')::text AS t",
  );
  if (rows[0]?.t === null || rows[0]?.t === undefined) throw new StoreMissingError(redactUrl(url));
}

export interface PgStoreOptions extends StoreOptions {
  /** Connections in the pool. Default 10. */
  poolSize?: number;
}

/**
 * Connects to the PostgreSQL database at `url` and brings its schema up to date (once, under an
 * advisory lock, however many replicas open it at the same time).
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types });
  // An idle client's error (the server restarted) must not crash the process.
  pool.on('error', () => undefined);
  let vectors: PgVectorSupport;
  let collation: string | undefined;
  try {
    const client = await pool.connect();
    try {
      if (options.mustExist === true) await mustHaveSchema(client, url);
      await migratePg(client, MIGRATIONS);
      vectors = await preparePgVectors(client);
      collation = await checkCollation(client);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  const warnings = collation === undefined ? [] : [collation];
  const store = new PgStore(pool, url, options.busyBudgetMs ?? 10_000, vectors, warnings);
  // Documents written past the store (or before this version) are indexed in the background.
  if (await store.hasPostingsBacklog()) void store.drainPostings();
  return store;
}
