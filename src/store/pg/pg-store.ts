// The PostgreSQL backend (node-postgres pool): the same async Store contract as SQLite. Writes
// run SERIALIZABLE (the guarantee SQLite's single writer gives the domains: claims, caps, room
// sequence numbers) and are retried on serialization failures and deadlocks with jittered backoff.
import pg from 'pg';

import type { CodeIndex } from '../code-index.js';
import { StoreBusyError, StoreMissingError } from '../errors.js';
import type { GraphIndex } from '../graph-index.js';
import type { MemoryIndex } from '../memory-index.js';
import { MIGRATIONS } from '../migrations.js';
import { backoffMs, sleep } from '../sqlite-open.js';
import type { Queryable, RunResult, SqlValue, Store, StoreOptions } from '../types.js';
import type { VaultIndex } from '../vault-index.js';
import { isRetryablePgError, redactUrl } from './pg-errors.js';
import { createPgLocks, type PgLocks } from './pg-locks.js';
import { migratePg } from './pg-migrate.js';
import { createPgSignals, type PgSignals } from './pg-signals.js';
import { pgPlaceholders } from './pg-sql.js';
import { unported } from './pg-unported.js';

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
  readonly memoryIndex = unported<MemoryIndex>('memory search');
  readonly codeIndex = unported<CodeIndex>('code search');
  readonly vaultIndex = unported<VaultIndex>('vault search');
  readonly graphIndex = unported<GraphIndex>('graph search');
  readonly #pool: pg.Pool;
  readonly #direct: Queryable;
  readonly #budgetMs: number;
  readonly signals: PgSignals;
  readonly locks: PgLocks;
  #closed = false;

  constructor(pool: pg.Pool, url: string, budgetMs: number) {
    this.#pool = pool;
    this.signals = createPgSignals(url);
    this.locks = createPgLocks(url);
    this.location = redactUrl(url);
    this.locator = url;
    this.#budgetMs = budgetMs;
    this.#direct = queryable(pool);
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

  write<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#transaction('BEGIN ISOLATION LEVEL SERIALIZABLE', fn, true);
  }

  read<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn, false);
  }

  async #transaction<T>(
    begin: string,
    fn: (tx: Queryable) => Promise<T>,
    retry: boolean,
  ): Promise<T> {
    if (this.#closed) throw new Error('store is closed');
    const deadline = Date.now() + this.#budgetMs;
    for (let attempt = 0; ; attempt++) {
      const client = await this.#pool.connect();
      try {
        await client.query(begin);
        const result = await fn(queryable(client));
        await client.query('COMMIT');
        return result;
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
  try {
    const client = await pool.connect();
    try {
      if (options.mustExist === true) await mustHaveSchema(client, url);
      await migratePg(client, MIGRATIONS);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  return new PgStore(pool, url, options.busyBudgetMs ?? 10_000);
}
