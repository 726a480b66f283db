// The store's signal channel and run-once locks on the backend the project runs: a signal sent
// in a write transaction is heard once it commits and never after a rollback; on PostgreSQL a
// second store on the same database hears it too (its own LISTEN connection), a dropped
// listening connection comes back and wakes every subscriber, and a lock held by one store
// makes the other skip.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import type { Store } from '../../src/store/index.js';
import { firstHeard, listening, type SharedDb, sharedDb } from './shared-db.js';

let db: SharedDb | undefined;
afterEach(async () => {
  await db?.dispose();
  db = undefined;
});

const onPg = (): boolean => db?.url !== undefined;

/** Every payload `store` hears on `topic`, in order. */
function record(store: Store, topic: string): (string | null)[] {
  const heard: (string | null)[] = [];
  store.signals.subscribe(topic, (p) => heard.push(p));
  return heard;
}

const heardOn = (store: Store, topic: string, payload: string): Promise<string | null> =>
  firstHeard<string | null>(
    (fn) => store.signals.subscribe(topic, fn),
    (p) => p === payload,
  );

describe('store signals', () => {
  it('a signal sent in a write is heard after the commit, never after a rollback', async () => {
    db = await sharedDb();
    const store = await db.store();
    await listening(store);
    const heard = record(store, 't');
    const second = heardOn(store, 't', 'second');
    await expect(
      store.write(async (tx) => {
        await store.signals.notify(tx, 't', 'rolled-back');
        throw new Error('abort the write');
      }),
    ).rejects.toThrow('abort the write');
    await store.write(async (tx) => {
      await store.signals.notify(tx, 't', 'second');
      await store.signals.notify(tx, 'other', 'x');
      // Not before the commit.
      expect(heard.filter((p) => p !== null)).toEqual([]);
    });
    await second;
    expect(heard.filter((p) => p !== null)).toEqual(['second']);
    expect(store.signals.reach).toBe(onPg() ? 'database' : 'process');
  });

  it('an unsubscribed listener hears nothing more; other subscribers still do', async () => {
    db = await sharedDb();
    const store = await db.store();
    await listening(store);
    const gone: (string | null)[] = [];
    const off = store.signals.subscribe('t', (p) => gone.push(p));
    off();
    const kept = heardOn(store, 't', '1');
    await store.signals.notify(store, 't', '1');
    await kept;
    expect(gone.filter((p) => p !== null)).toEqual([]);
  });

  it('another store on the same database hears a commit only on PostgreSQL', async () => {
    db = await sharedDb();
    const [a, b] = [await db.store(), await db.store()];
    await listening(b);
    const heardByB = record(b, 'room');
    if (!onPg()) {
      // SQLite: in-process only; other processes find the change by polling the file.
      await a.write((tx) => a.signals.notify(tx, 'room', 'r1 1'));
      const own = heardOn(b, 'room', 'b');
      await b.signals.notify(b, 'room', 'b');
      await own;
      expect(heardByB).toEqual(['b']);
      return;
    }
    const heard = heardOn(b, 'room', 'r1 1');
    await a.write((tx) => a.signals.notify(tx, 'room', 'r1 1'));
    await expect(heard).resolves.toBe('r1 1');
  });

  it('PostgreSQL: a dropped LISTEN connection reconnects and wakes every subscriber', async () => {
    db = await sharedDb();
    if (!onPg()) return;
    const [a, b] = [await db.store(), await db.store()];
    // Up once: the first connect wakes subscribers (null) so they re-read.
    await listening(b);
    const woken = firstHeard<string | null>(
      (fn) => b.signals.subscribe('x', fn),
      (p) => p === null,
    );
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
         WHERE datname = current_database() AND query = 'LISTEN cairn_signals' AND pid <> pg_backend_pid()`,
      );
      expect(killed.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await woken;
    const after = heardOn(b, 't', 'after the drop');
    await a.signals.notify(a, 't', 'after the drop');
    await expect(after).resolves.toBe('after the drop');
  });
});

describe('store locks', () => {
  it('one holder at a time per name; the name is free again after the run', async () => {
    db = await sharedDb();
    const [a, b] = [await db.store(), await db.store()];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = a.locks.tryRun('sweep', async () => {
      await held;
      return 'swept';
    });
    // Taken in this process: skipped; a different name runs.
    await expect(a.locks.tryRun('sweep', () => Promise.resolve(1))).resolves.toEqual({
      ran: false,
    });
    await expect(a.locks.tryRun('other', () => Promise.resolve(2))).resolves.toEqual({
      ran: true,
      value: 2,
    });
    // Another store on the database: skipped on PostgreSQL (advisory lock), runs on SQLite
    // (each process on the file runs its own background work, as before).
    const fromB = await b.locks.tryRun('sweep', () => Promise.resolve(3));
    expect(fromB).toEqual(onPg() ? { ran: false } : { ran: true, value: 3 });
    release();
    await expect(first).resolves.toEqual({ ran: true, value: 'swept' });
    await expect(b.locks.tryRun('sweep', () => Promise.resolve(4))).resolves.toEqual({
      ran: true,
      value: 4,
    });
  });

  it('a failing run releases the lock and passes the error on', async () => {
    db = await sharedDb();
    const [a, b] = [await db.store(), await db.store()];
    await expect(a.locks.tryRun('job', () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(b.locks.tryRun('job', () => Promise.resolve(1))).resolves.toEqual({
      ran: true,
      value: 1,
    });
    await expect(a.locks.tryRun('job', () => Promise.resolve(2))).resolves.toEqual({
      ran: true,
      value: 2,
    });
  });
});
