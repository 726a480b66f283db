// Run-once locks across replicas on PostgreSQL: a session advisory lock per name
// (`pg_try_advisory_lock`) on one dedicated connection per store, so background work (sweeps,
// backlogs, index jobs) that outlives a transaction runs in one process at a time without holding
// a pool client. A process that dies (or loses that connection) releases its locks with it.
// Whether a lock is held anywhere is read from `pg_locks`, through the pool, without taking it.
import pg from 'pg';

import { createLocalLocks } from '../signal-hub.js';
import type { LockHold, LockRun, Locks, Queryable } from '../types.js';

export interface PgLocks extends Locks {
  close(): Promise<void>;
}

const KEY_SQL = 'hashtextextended($1, 0)';

/**
 * A granted advisory lock on `key` in this database. A bigint key shows in pg_locks as its high
 * half in `classid`, its low half in `objid`, and `objsubid` 1.
 */
const HELD_SQL = `SELECT EXISTS (
    SELECT 1 FROM pg_locks l, (SELECT hashtextextended(?, 0) AS k) h
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND l.classid = ((h.k >> 32) & 4294967295)::oid
      AND l.objid = (h.k & 4294967295)::oid
  ) AS held`;

/**
 * The locks of the store on the database at `url` (connects on the first lock taken); `reader`
 * (the store's pool) answers `isHeld`.
 */
export function createPgLocks(url: string, reader: Queryable): PgLocks {
  // The in-process guard first: PostgreSQL's session locks are re-entrant within a session.
  const local = createLocalLocks();
  let client: Promise<pg.Client> | undefined;
  let closed = false;

  function connection(): Promise<pg.Client> {
    if (closed) return Promise.reject(new Error('store is closed'));
    client ??= (async () => {
      const c = new pg.Client({ connectionString: url });
      const forget = (): void => {
        // Its locks went with it; the next lock taken connects again.
        client = undefined;
      };
      c.on('error', forget);
      c.on('end', forget);
      try {
        await c.connect();
      } catch (err) {
        forget();
        throw err;
      }
      return c;
    })();
    return client;
  }

  /** The advisory lock alone (the caller holds the in-process guard). */
  async function advisory(name: string): Promise<LockHold | null> {
    const c = await connection();
    const got = await c.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${KEY_SQL}) AS ok`, [
      name,
    ]);
    if (got.rows[0]?.ok !== true) return null;
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        // A connection that cannot unlock is ended: its locks go with it.
        await c
          .query(`SELECT pg_advisory_unlock(${KEY_SQL})`, [name])
          .catch(() => c.end().catch(() => undefined));
      },
    };
  }

  async function tryHold(name: string): Promise<LockHold | null> {
    const guard = await local.tryHold(name);
    if (guard === null) return null;
    let hold: LockHold | null;
    try {
      hold = await advisory(name);
    } catch (err) {
      await guard.release();
      throw err;
    }
    if (hold === null) {
      await guard.release();
      return null;
    }
    const taken = hold;
    return {
      async release() {
        await taken.release();
        await guard.release();
      },
    };
  }

  return {
    reach: 'database',
    tryHold,
    async isHeld(name: string): Promise<boolean> {
      if (local.held(name)) return true;
      const row = await reader.get<{ held: boolean }>(HELD_SQL, [name]);
      return row?.held === true;
    },
    async tryRun<T>(name: string, fn: () => Promise<T>): Promise<LockRun<T>> {
      const hold = await tryHold(name);
      if (hold === null) return { ran: false };
      try {
        return { ran: true, value: await fn() };
      } finally {
        await hold.release();
      }
    },
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      await (await c?.catch(() => undefined))?.end().catch(() => undefined);
    },
  };
}
