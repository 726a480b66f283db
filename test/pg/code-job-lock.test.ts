// The run lock of a code index job on PostgreSQL, in one process: its runner (a worker thread
// with its own store) holds the job's advisory lock while the job runs and gives it up when the
// job ends, leaving no connection behind; and the liveness verdict on a job another machine
// runs is taken from that lock, never from a pid that means nothing here.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createCodeIndex } from '../../src/code/index.js';
import { jobLockName } from '../../src/code/indexer/liveness.js';
import { openPgStore, type Store } from '../../src/store/index.js';
import { PROVENANCE } from '../code/indexer-fixtures.js';
import { pollUntil } from '../concurrency/spawn.js';
import { tempDir } from '../helpers.js';
import { admin, freshPgDatabase, pgAdminUrl } from '../pg-databases.js';

const adminUrl = pgAdminUrl() ?? '';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A fresh database, a source tree of `files` files (40 functions each) and the tree's root. */
async function setup(files: number): Promise<{ url: string; dbName: string; root: string }> {
  const db = await freshPgDatabase(adminUrl);
  cleanups.push(() => db.drop());
  const dir = tempDir('cairn-pg-joblock-');
  cleanups.push(() => dir.cleanup());
  const root = join(realpathSync(dir.path), 'repo');
  mkdirSync(join(root, 'gen'), { recursive: true });
  for (let i = 0; i < files; i++) {
    const body = Array.from(
      { length: 40 },
      (_, j) => `export function f${i}_${j}(x: number): number {\n  return x * ${j} + ${i};\n}\n`,
    ).join('\n');
    writeFileSync(join(root, 'gen', `m${i}.ts`), body);
  }
  return { url: db.url, dbName: new URL(db.url).pathname.slice(1), root };
}

/** A store whose pool keeps one connection, so the test's own connections never vary. */
async function store(url: string): Promise<Store> {
  const s = await openPgStore(url, { poolSize: 1 });
  cleanups.push(() => s.close());
  return s;
}

/** Backends on `dbName` (every store's pool clients and lock connections), and the busy ones. */
async function connections(dbName: string): Promise<{ all: number; busy: number }> {
  return admin(adminUrl, async (c) => {
    const r = await c.query<{ all: string; busy: string }>(
      `SELECT COUNT(*) AS all, COUNT(*) FILTER (WHERE state <> 'idle') AS busy
       FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [dbName],
    );
    return { all: Number(r.rows[0]?.all), busy: Number(r.rows[0]?.busy) };
  });
}

async function advisoryLocks(s: Store): Promise<number> {
  const row = await s.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted
     AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Resolves once `jobId`'s lock is free. The runner gives it up just after writing the job's
 * final row, which is what `wait()` returns on, so the two are a few milliseconds apart.
 */
async function released(s: Store, jobId: string): Promise<void> {
  await pollUntil('the job lock to be released', 2_000, async () =>
    (await s.locks.isHeld(jobLockName(jobId))) ? undefined : true,
  );
}

function deadPid(): number {
  return Number(
    execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }),
  );
}

describe.skipIf(adminUrl === '')('code index job run locks on PostgreSQL', () => {
  it('the runner holds the job lock while the job runs and releases it, and its connections, at the end', async () => {
    const { url, dbName, root } = await setup(150);
    const main = await store(url);
    const prober = await store(url);
    const index = createCodeIndex(main, { batch: { files: 5 }, hostId: 'host-a' });
    cleanups.push(() => index.stop());
    await prober.get('SELECT 1');
    const before = await connections(dbName);

    const started = await index.start({ path: root, collection: 'locked' }, PROVENANCE);
    if (started.kind !== 'job') throw new Error('expected a job');
    const id = started.job.id;
    await pollUntil(
      'the job to run',
      30_000,
      async () => {
        const j = await index.job(id);
        return j.state === 'running' && j.files.seen > 0 ? j : undefined;
      },
      20,
    );
    expect(await prober.locks.isHeld(jobLockName(id))).toBe(true);
    expect(await advisoryLocks(prober)).toBe(1);
    // The worker's own store: its pool and its lock connection.
    expect((await connections(dbName)).all).toBeGreaterThan(before.all);
    const row = await prober.get<{ host: string; pid: number }>(
      'SELECT host, pid FROM code_jobs WHERE id = ?',
      [id],
    );
    expect(row).toEqual({ host: 'host-a', pid: process.pid });

    const done = await index.wait(id);
    expect(done.state, done.message ?? '').toBe('done');
    await released(prober, id);
    expect(await advisoryLocks(prober)).toBe(0);
    // The worker closed its store: back to the connections there were, none of them busy.
    const after = await pollUntil('the worker to close its connections', 10_000, async () => {
      const now = await connections(dbName);
      return now.all <= before.all ? now : undefined;
    });
    expect(after).toEqual({ all: before.all, busy: 0 });
    // Nothing of the lock stays taken: the next job of the collection runs and releases it too.
    const next = await index.start({ path: root, collection: 'locked' }, PROVENANCE);
    if (next.kind !== 'job') throw new Error('expected a job');
    expect((await index.wait(next.job.id)).state).toBe('done');
    await released(prober, next.job.id);
    expect(await advisoryLocks(prober)).toBe(0);
  });

  it('an inline runner takes the lock on its own store and releases it when the job ends', async () => {
    const { url, root } = await setup(20);
    const main = await store(url);
    const prober = await store(url);
    const index = createCodeIndex(main, { runner: 'inline', hostId: 'host-a' });
    cleanups.push(() => index.stop());
    const seen: boolean[] = [];
    const started = await index.start({ path: root, collection: 'inline' }, PROVENANCE);
    if (started.kind !== 'job') throw new Error('expected a job');
    const done = await index.wait(started.job.id, {
      onProgress: (s) => {
        if (s.state === 'running')
          void prober.locks.isHeld(jobLockName(s.id)).then((h) => seen.push(h));
      },
    });
    expect(done.state).toBe('done');
    // Asked while it ran (an answer may come after its end): held at least then.
    expect(seen).toContain(true);
    await released(prober, started.job.id);
    expect(await main.locks.isHeld(jobLockName(started.job.id))).toBe(false);
    expect(await advisoryLocks(prober)).toBe(0);
  });

  it("another machine's running job is judged by its lock, not by a pid that means nothing here", async () => {
    const { url, root } = await setup(3);
    const main = await store(url);
    const holder = await store(url);
    const index = createCodeIndex(main, { runner: 'inline', hostId: 'host-b' });
    cleanups.push(() => index.stop());
    const first = await index.start({ path: root, collection: 'remote' }, PROVENANCE);
    if (first.kind !== 'job') throw new Error('expected a job');
    const ok = await index.wait(first.job.id);
    const collection = await main.get<{ id: number }>(
      "SELECT id FROM code_collections WHERE name = 'remote'",
    );
    /** A running job of `host` with a pid that is no process here, and a fresh heartbeat. */
    const running = async (id: string, host: string): Promise<void> => {
      const now = Date.now();
      await main.run(
        `INSERT INTO code_jobs (id, collection_id, action, state, phase, pid, host, created_at,
           started_at, heartbeat_at) VALUES (?, ?, 'start', 'running', 'chunking', ?, ?, ?, ?, ?)`,
        [id, collection?.id ?? 0, deadPid(), host, now, now, now],
      );
      await main.run("UPDATE code_collections SET state = 'indexing' WHERE name = 'remote'");
    };

    await running('job-remote', 'host-a');
    const hold = await holder.locks.tryHold(jobLockName('job-remote'));
    expect(hold).not.toBeNull();
    // Its runner holds the lock: alive, whatever its pid would say on this machine.
    expect((await index.job('job-remote')).state).toBe('running');
    const busy = await index.start({ path: root, collection: 'remote' }, PROVENANCE);
    expect(busy).toMatchObject({ kind: 'job', alreadyRunning: true, job: { id: 'job-remote' } });
    // The lock is free: its runner is gone, seen at once (the heartbeat is fresh).
    await hold?.release();
    expect(await index.job('job-remote')).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/on host-a\) no longer holds the job's lock/),
    });
    const status = (await index.status('remote')).collections[0];
    expect(status).toMatchObject({ state: 'ready', running: null, indexedAt: ok.startedAt });

    // A job of this machine is judged by its pid first.
    await running('job-local', 'host-b');
    expect(await index.job('job-local')).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/its process \(pid \d+\) is gone/),
    });
  });
});
