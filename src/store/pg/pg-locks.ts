// Run-once locks across replicas on PostgreSQL: a session advisory lock per name
// (`pg_try_advisory_lock`) on one dedicated connection per store, so background work (sweeps,
// backlogs) that outlives a transaction runs in one process at a time without holding a pool
// client. A process that dies (or loses that connection) releases its locks with it.
import pg from 'pg';

import { createLocalLocks } from '../signal-hub.js';
import type { LockRun, Locks } from '../types.js';

export interface PgLocks extends Locks {
  close(): Promise<void>;
}

const KEY_SQL = 'hashtextextended($1, 0)';

/** The locks of the store on the database at `url` (connects on the first `tryRun`). */
export function createPgLocks(url: string): PgLocks {
  // The in-process guard first: PostgreSQL's session locks are re-entrant within a session.
  const local = createLocalLocks();
  let client: Promise<pg.Client> | undefined;
  let closed = false;

  function connection(): Promise<pg.Client> {
    if (closed) return Promise.reject(new Error('store is closed'));
    client ??= (async () => {
      const c = new pg.Client({ connectionString: url });
      const forget = (): void => {
        // Its locks went with it; the next tryRun connects again.
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

  async function locked<T>(name: string, fn: () => Promise<T>): Promise<LockRun<T>> {
    const c = await connection();
    const got = await c.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${KEY_SQL}) AS ok`, [
      name,
    ]);
    if (got.rows[0]?.ok !== true) return { ran: false };
    try {
      return { ran: true, value: await fn() };
    } finally {
      await c
        .query(`SELECT pg_advisory_unlock(${KEY_SQL})`, [name])
        .catch(() => c.end().catch(() => undefined));
    }
  }

  return {
    async tryRun<T>(name: string, fn: () => Promise<T>): Promise<LockRun<T>> {
      const run = await local.tryRun(name, () => locked(name, fn));
      return run.ran ? run.value : run;
    },
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      await (await c?.catch(() => undefined))?.end().catch(() => undefined);
    },
  };
}
