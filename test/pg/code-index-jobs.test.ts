// Code index jobs across processes on one PostgreSQL database: three cairn-mcp-context
// processes (each its own core, store and pool) ask to index the same collection at the same
// moment, and exactly one job is queued, claimed and run; the others are handed that job. A
// claimant killed mid-job leaves a job the next caller ends as abandoned, and the next job of
// that collection is then claimed and run exactly once too. A claimant on another machine
// (CAIRN_HOST_ID) is judged by the job's advisory lock, not its pid: alive while it holds it,
// dead the moment the database drops it, well before its heartbeat would tell (30 s).
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { JobStatus } from '../../src/code/index.js';
import { type Arena, createArena } from '../concurrency/fixtures.js';
import { call, okData, pollUntil, type TasksProcess } from '../concurrency/spawn.js';
import { ROOT, tempDir, type TempDir } from '../helpers.js';

const CONTEXT_BIN = join(ROOT, 'bin/cairn-mcp-context.js');

/** Provenance for index_repo (a model id) and no embedding model to load. */
const ENV = { CAIRN_EMBEDDINGS: 'none', CAIRN_MODEL_ID: 'race-model', USER: 'racer' };

interface IndexAnswer {
  job: JobStatus;
  alreadyRunning: boolean;
}

interface JobRowView {
  id: string;
  state: string;
  pid: number | null;
  host: string | null;
  started_at: number | null;
  finished_at: number | null;
  outcome: string | null;
}

/** A source tree of `n` TypeScript files (a few functions each) under a fresh folder. */
function sourceTree(n: number): { root: string; dir: TempDir } {
  const dir = tempDir('cairn-pg-jobs-');
  const root = realpathSync(dir.path);
  for (let i = 0; i < n; i++) {
    const folder = join(root, 'src', `m${i % 10}`);
    mkdirSync(folder, { recursive: true });
    const body = Array.from(
      { length: 6 },
      (_, k) =>
        `export function f${i}_${k}(a: number, b: number): number {\n  if (a > b) return a - ${k};\n  return b + ${i};\n}\n`,
    ).join('\n');
    writeFileSync(join(folder, `file${i}.ts`), body);
  }
  return { root, dir };
}

describe('code index jobs on PostgreSQL: 3 processes, one database', () => {
  let arena: Arena;
  let tree: { root: string; dir: TempDir } | undefined;

  beforeEach(async () => {
    arena = await createArena({ bin: CONTEXT_BIN, env: ENV });
  });
  afterEach(async () => {
    await arena.dispose();
    tree?.dir.cleanup();
    tree = undefined;
  });

  const jobsOf = (collection: string): Promise<JobRowView[]> =>
    arena.withCore((core) =>
      core.store.all<JobRowView>(
        `SELECT j.id, j.state, j.pid, j.host, j.started_at, j.finished_at, j.outcome FROM code_jobs j
         JOIN code_collections c ON c.id = j.collection_id WHERE c.name = ? ORDER BY j.created_at, j.id`,
        [collection],
      ),
    );

  const filesOf = (collection: string): Promise<number> =>
    arena.withCore(async (core) => {
      const row = await core.store.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM code_files f JOIN code_collections c ON c.id = f.collection_id
         WHERE c.name = ?`,
        [collection],
      );
      return Number(row?.n ?? 0);
    });

  /** Resolves once the job is running and has written at least one batch. */
  const runningWithFiles = (collection: string, jobId: string): Promise<JobRowView> =>
    pollUntil(
      'the job to be running with files seen',
      60_000,
      async () => {
        const [row] = await jobsOf(collection);
        const seen = await arena.withCore((core) =>
          core.store.get<{ files_seen: number }>('SELECT files_seen FROM code_jobs WHERE id = ?', [
            jobId,
          ]),
        );
        return row?.state === 'running' && (seen?.files_seen ?? 0) > 0 ? row : undefined;
      },
      20,
    );

  /** SIGKILLs `victim` and resolves once it has exited, with the time of the kill. */
  const killed = async (victim: TasksProcess): Promise<number> => {
    victim.kill('SIGKILL');
    const at = Date.now();
    await pollUntil('the victim to exit', 10_000, () => {
      try {
        process.kill(victim.pid, 0);
        return Promise.resolve(undefined);
      } catch {
        return Promise.resolve(true);
      }
    });
    return at;
  };

  /** The racers after a dead claimant: one new job (not `deadJobId`), run by one of them, done. */
  const expectOneNewJob = (answers: readonly IndexAnswer[], deadJobId: string): void => {
    expect(new Set(answers.map((a) => a.job.id)).size).toBe(1);
    expect(answers.filter((a) => !a.alreadyRunning)).toHaveLength(1);
    expect(answers[0]?.job.id).not.toBe(deadJobId);
    for (const a of answers) expect(a.job.state).toBe('done');
  };

  /** Every process asks index_repo for `collection` at once; the answers in process order. */
  const raceIndex = (
    procs: readonly TasksProcess[],
    collection: string,
    waitSeconds = 120,
  ): Promise<IndexAnswer[]> =>
    Promise.all(
      procs.map(async (p) =>
        okData<IndexAnswer>(
          await call(p.client, 'index_repo', {
            path: tree?.root,
            collection,
            wait_seconds: waitSeconds,
          }),
        ),
      ),
    );

  it('three processes asking for the same collection at once queue, claim and run one job', async () => {
    tree = sourceTree(40);
    const procs = await arena.pool.spawnMany(3);
    const pids = procs.map((p) => p.pid);
    for (const collection of ['race-a', 'race-b', 'race-c', 'race-d']) {
      const answers = await raceIndex(procs, collection);
      const ids = new Set(answers.map((a) => a.job.id));
      expect(ids.size, JSON.stringify(answers.map((a) => a.job.id))).toBe(1);
      expect(answers.filter((a) => !a.alreadyRunning)).toHaveLength(1);
      for (const a of answers) expect(a.job.state).toBe('done');

      const jobs = await jobsOf(collection);
      expect(jobs).toHaveLength(1);
      const [job] = jobs;
      expect(job?.state).toBe('done');
      // The job was claimed (queued → running) by the process that queued it, and only once.
      const runner = pids[answers.findIndex((a) => !a.alreadyRunning)];
      expect(job?.pid).toBe(runner);
      expect(job?.started_at).not.toBeNull();
      expect(await filesOf(collection)).toBe(40);
    }
  });

  it('a claimant killed mid-job leaves its job to be ended by the next caller, whose new job runs exactly once', async () => {
    tree = sourceTree(600);
    const root = tree.root;
    const [victim] = await arena.pool.spawnMany(1);
    if (victim === undefined) throw new Error('no process');
    const started = okData<IndexAnswer>(
      await call(victim.client, 'index_repo', {
        path: root,
        collection: 'crash',
        wait_seconds: 0,
      }),
    );
    expect(started.alreadyRunning).toBe(false);
    // Kill it once its worker has claimed the job and written at least one batch.
    await runningWithFiles('crash', started.job.id);
    await killed(victim);
    const [stale] = await jobsOf('crash');
    expect(stale?.state).toBe('running');
    expect(await filesOf('crash')).toBeLessThan(600);

    // Two survivors ask at once: the dead claimant's job is ended as abandoned, and exactly one
    // of them queues, claims and runs the next job.
    const survivors = await arena.pool.spawnMany(2);
    const answers = await raceIndex(survivors, 'crash');
    expectOneNewJob(answers, started.job.id);

    const jobs = await jobsOf('crash');
    expect(jobs.map((j) => j.state)).toEqual(['failed', 'done']);
    expect(jobs[0]?.id).toBe(started.job.id);
    expect(jobs[0]?.outcome).toContain(`its process (pid ${victim.pid}) is gone`);
    const runner = survivors[answers.findIndex((a) => !a.alreadyRunning)]?.pid;
    expect(jobs[1]?.pid).toBe(runner);
    expect(await filesOf('crash')).toBe(600);
  });

  it('a claimant on another machine killed mid-job is seen dead at once through its lock, and exactly one new job runs', async () => {
    tree = sourceTree(600);
    const root = tree.root;
    const [victim] = await arena.pool.spawnMany(1, [], { CAIRN_HOST_ID: 'host-a' });
    // The others run on another machine; started first, so the clock below times the verdict.
    const others = await arena.pool.spawnMany(2, [], { CAIRN_HOST_ID: 'host-b' });
    if (victim === undefined || others[0] === undefined) throw new Error('no process');
    const ask = (p: TasksProcess, waitSeconds: number): Promise<IndexAnswer> =>
      call(p.client, 'index_repo', {
        path: root,
        collection: 'remote',
        wait_seconds: waitSeconds,
      }).then((o) => okData<IndexAnswer>(o));
    const started = await ask(victim, 0);
    expect(started.alreadyRunning).toBe(false);
    const running = await runningWithFiles('remote', started.job.id);
    expect(running).toMatchObject({ host: 'host-a', pid: victim.pid });

    // Alive on host-a: host-b is handed the running job. Its lock is held; its pid, which names
    // nothing on another machine, is not looked at.
    const during = await ask(others[0], 0);
    expect(during).toMatchObject({ alreadyRunning: true, job: { id: started.job.id } });
    expect(during.job.state).toBe('running');

    const killedAt = await killed(victim);
    const answers = await raceIndex(others, 'remote');
    expectOneNewJob(answers, started.job.id);

    const jobs = await jobsOf('remote');
    expect(jobs.map((j) => j.state)).toEqual(['failed', 'done']);
    const [dead, next] = jobs;
    expect(dead?.outcome).toContain(`(pid ${victim.pid} on host-a) no longer holds the job's lock`);
    // Seen within seconds of the kill, where the heartbeat would have taken 30.
    const seenAfterMs = (dead?.finished_at ?? Infinity) - killedAt;
    expect(seenAfterMs, `seen ${seenAfterMs} ms after the kill`).toBeLessThan(5_000);
    const runner = others[answers.findIndex((a) => !a.alreadyRunning)]?.pid;
    expect(next).toMatchObject({ host: 'host-b', pid: runner });
    expect(await filesOf('remote')).toBe(600);
  });
});
