// The store's held locks (`locks.tryHold` / `locks.isHeld`, what a code index job's runner keeps
// for the job's life) on the backend the project runs: a hold keeps its name until released; on
// PostgreSQL a second store on the database sees it too, `isHeld` never takes it, and a holder
// whose connection dies releases it with that connection. On SQLite holds stay in the process.
import { afterEach, describe, expect, it } from 'vitest';

import type { Store } from '../../src/store/index.js';
import { pollUntil } from '../concurrency/spawn.js';
import { admin, pgAdminUrl } from '../pg-databases.js';
import { type SharedDb, sharedDb } from './shared-db.js';

let db: SharedDb | undefined;
afterEach(async () => {
  await db?.dispose();
  db = undefined;
});

const onPg = (): boolean => db?.url !== undefined;

/** Advisory locks granted in the store's database now (0 on SQLite). */
async function advisoryLocks(store: Store): Promise<number> {
  if (store.dialect !== 'postgres') return 0;
  const row = await store.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted
     AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return Number(row?.n ?? 0);
}

describe('store lock holds', () => {
  it('a hold keeps its name until released; another store sees it only on PostgreSQL', async () => {
    db = await sharedDb();
    const [a, b] = [await db.store(), await db.store()];
    expect(a.locks.reach).toBe(onPg() ? 'database' : 'process');
    const hold = await a.locks.tryHold('job:1');
    expect(hold).not.toBeNull();
    expect(await a.locks.tryHold('job:1')).toBeNull();
    expect(await a.locks.tryRun('job:1', () => Promise.resolve(1))).toEqual({ ran: false });
    expect(await a.locks.isHeld('job:1')).toBe(true);
    expect(await a.locks.isHeld('job:2')).toBe(false);
    expect(await advisoryLocks(a)).toBe(onPg() ? 1 : 0);

    // Asking does not take it: b asks again and again, and the answer stays the same.
    for (let i = 0; i < 3; i++) expect(await b.locks.isHeld('job:1')).toBe(onPg());
    const fromB = await b.locks.tryHold('job:1');
    expect(fromB === null).toBe(onPg());
    await fromB?.release();

    await hold?.release();
    await hold?.release(); // a second release does nothing
    expect(await a.locks.isHeld('job:1')).toBe(false);
    expect(await b.locks.isHeld('job:1')).toBe(false);
    expect(await advisoryLocks(a)).toBe(0);
    const again = await b.locks.tryHold('job:1');
    expect(again).not.toBeNull();
    expect(await a.locks.isHeld('job:1')).toBe(onPg());
    await again?.release();
    expect(await a.locks.tryRun('job:1', () => Promise.resolve(2))).toEqual({
      ran: true,
      value: 2,
    });
  });

  it('isHeld finds every held name (PostgreSQL: keys of either sign in pg_locks)', async () => {
    db = await sharedDb();
    const [a, b] = [await db.store(), await db.store()];
    const names = Array.from({ length: 16 }, (_, i) => `code-job:job-${i}`);
    const holds = await Promise.all(names.map((n) => a.locks.tryHold(n)));
    for (const n of names) expect(await b.locks.isHeld(n), n).toBe(onPg());
    expect(await b.locks.isHeld('code-job:not-held')).toBe(false);
    for (const h of holds) await h?.release();
    for (const n of names) expect(await b.locks.isHeld(n), n).toBe(false);
  });

  it.skipIf(pgAdminUrl() === undefined)(
    'PostgreSQL: a holder whose lock connection dies releases its holds with it',
    async () => {
      db = await sharedDb();
      const [a, b] = [await db.store(), await db.store()];
      const hold = await a.locks.tryHold('job:dies');
      expect(await b.locks.isHeld('job:dies')).toBe(true);
      // End the backend that holds the advisory lock, as a dead process's would end.
      const killed = await admin(pgAdminUrl() ?? '', (c) =>
        c.query(
          `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid
           WHERE l.locktype = 'advisory' AND l.granted AND s.datname = $1`,
          [new URL(db?.url ?? '').pathname.slice(1)],
        ),
      );
      expect(killed.rowCount).toBe(1);
      await pollUntil('the lock to be free', 5_000, async () =>
        (await b.locks.isHeld('job:dies')) ? undefined : true,
      );
      const taken = await b.locks.tryHold('job:dies');
      expect(taken).not.toBeNull();
      // The dead hold's release neither throws nor frees b's lock.
      await hold?.release();
      expect(await a.locks.isHeld('job:dies')).toBe(true);
      await taken?.release();
      // a connects again for its next lock.
      const next = await a.locks.tryHold('job:dies');
      expect(next).not.toBeNull();
      await next?.release();
    },
  );
});
