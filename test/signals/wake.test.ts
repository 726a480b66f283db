// Waiters woken across cores and processes on one database. Each core has its own store (on
// PostgreSQL its own pool and LISTEN connection). The waiting core's safety poll is set to ten
// minutes, so on PostgreSQL a wake within the test's timeout came from a notification, and the
// waiting store is shown to have heard the signal; on SQLite the same tests pass through the
// file polls every waiter keeps there.
import { join } from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { teamRoom } from '../../src/rooms/index.js';
import { call, ProcessPool } from '../concurrency/spawn.js';
import { ROOT } from '../helpers.js';
import { pgAdminUrl } from '../pg-databases.js';
import { firstHeard, listening, type SharedDb, sharedDb } from './shared-db.js';

const NEVER_MS = 600_000;

let db: SharedDb | undefined;
let pool: ProcessPool | undefined;
afterEach(async () => {
  await pool?.closeAll();
  pool = undefined;
  await db?.dispose();
  db = undefined;
  vi.unstubAllEnvs();
});

/** Resolves with the first payload `core`'s store hears on `topic` that `accept` takes. */
const hears = (core: Core, topic: string, accept: (p: string) => boolean): Promise<unknown> =>
  firstHeard<string | null>(
    (fn) => core.store.signals.subscribe(topic, fn),
    (p) => p !== null && accept(p),
  );

describe('wake-ups across cores on one database', () => {
  it('a room post on core A wakes a long-poll waiting on core B', async () => {
    db = await sharedDb();
    const a = await db.core();
    const b = await db.core({ wakePollMs: NEVER_MS });
    await listening(b.store);
    const room = teamRoom('t1');
    for (let round = 1; round <= 3; round++) {
      const heard = hears(b, 'room', (p) => p === `${round} ${room}`);
      const waiting = b.rooms.waitForPost(room, round - 1, 30_000);
      const post = await a.rooms.post({
        roomId: room,
        authorAgentId: 'alice',
        text: `hi ${round}`,
      });
      expect(post.seq).toBe(round);
      await expect(waiting).resolves.toBe(true);
      if (db.url !== undefined) await heard;
    }
    // The long-poll through the subscribe path reads the post it was woken for.
    const page = b.rooms.subscribe({
      roomId: room,
      sinceSeq: 3,
      limit: 10,
      waitMs: 30_000,
      viewer: 'bob',
    });
    await a.rooms.post({ roomId: room, authorAgentId: 'alice', text: 'the fourth' });
    expect((await page).posts.map((p) => p.seq)).toEqual([4]);
  });

  it('a backplane channel message sent through core A reaches a follower on core B', async () => {
    db = await sharedDb();
    const a = await db.core();
    const b = await db.core({ wakePollMs: NEVER_MS });
    await listening(b.store);
    await a.backplane.channels.create({ name: '#ops', createdBy: 'alice' });
    const from = await b.backplane.cursor('#ops');
    const stop = new AbortController();
    const got: string[] = [];
    const done = new Promise<void>((resolve) => {
      void b.backplane.follow(
        '#ops',
        from,
        (m) => {
          got.push(String((m.envelope.payload as { text?: unknown }).text));
          if (got.length === 2) resolve();
        },
        stop.signal,
      );
    });
    await a.backplane.postAsHuman('#ops', 'first');
    await a.backplane.postAsHuman('#ops', 'second');
    await done;
    stop.abort();
    expect(got).toEqual(['first', 'second']);
  });

  it('an approval decided on core B releases the call waiting on core A', async () => {
    // PostgreSQL: nothing but a wake-up ends the wait early (no poll, progress report or lease
    // renewal). SQLite: another process's decision is found by the wait's poll of the file.
    if (pgAdminUrl() !== undefined) {
      vi.stubEnv('CAIRN_APPROVAL_POLL_MS', String(NEVER_MS));
      vi.stubEnv('CAIRN_APPROVAL_PROGRESS_MS', String(NEVER_MS));
      vi.stubEnv('CAIRN_APPROVAL_LEASE_MS', String(3 * NEVER_MS));
      vi.stubEnv('CAIRN_APPROVAL_TTL_MS', String(6 * NEVER_MS));
    }
    db = await sharedDb();
    const a = await db.core();
    const b = await db.core();
    await listening(a.store);
    let asked!: (id: string) => void;
    const waiting = new Promise<string>((resolve) => (asked = resolve));
    const result = a.broker.call({
      tool: 'delete_path',
      args: { path: '/tmp/cairn-signal-test' },
      caller: 'agent-a',
      onWaiting: (info) => asked(info.approvalId),
    });
    const id = await waiting;
    const heard = hears(a, 'approval', (p) => p === id);
    await b.broker.decide(id, 'allow_once', 'a human on B');
    await expect(result).resolves.toMatchObject({ data: { deleted: false } });
    if (db.url !== undefined) await heard;
  });
});

describe('wake-ups from another OS process', () => {
  it('a post from a spawned teamchat server wakes a long-poll in this process', async () => {
    db = await sharedDb();
    const core = await db.core({ wakePollMs: NEVER_MS });
    await listening(core.store);
    pool = new ProcessPool({
      db: db.path,
      home: join(db.home, 'home'),
      bin: join(ROOT, 'bin/cairn-mcp-teamchat.js'),
      env: db.url === undefined ? undefined : { CAIRN_DB_URL: db.url },
    });
    const child = await pool.spawn();
    const room = teamRoom('t2');
    const waiting = core.rooms.waitForPost(room, 0, 30_000);
    const posted = await call(child.client, 'team_chat_post', {
      authorAgentId: 'carol',
      teamId: 't2',
      text: 'from another process',
    });
    expect(posted).toMatchObject({ kind: 'ok', data: { posted: { seq: 1, roomId: room } } });
    await expect(waiting).resolves.toBe(true);
  });
});
