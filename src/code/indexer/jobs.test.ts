// Jobs as every process sees them: one live job per collection, a worker that leaves this thread
// free, jobs whose runner died (stale heartbeat, dead pid) failed on the next look, cancel and
// clear, and status over every collection.
import { execFileSync } from 'node:child_process';

import { afterEach, describe, expect, it } from 'vitest';

import { fixture, type Fixture, PROVENANCE, SOURCES } from '../../../test/code/indexer-fixtures.js';
import { openSqliteStore } from '../../store/index.js';
import { createCodeIndex } from './code-index.js';
import type { CodeIndex, IndexParams, JobStatus } from './types.js';

let fx: Fixture | undefined;
let index: CodeIndex | undefined;
afterEach(async () => {
  await index?.stop();
  await fx?.cleanup();
  fx = undefined;
  index = undefined;
});

async function sampleTree(): Promise<Fixture> {
  fx = await fixture();
  for (const [path, text] of Object.entries(SOURCES)) fx.write(path, text);
  return fx;
}

/** A tree big enough that its index outlasts a few store calls: `n` files of 40 functions. */
function bigTree(f: Fixture, n: number): void {
  for (let i = 0; i < n; i++) {
    const body = Array.from(
      { length: 40 },
      (_, j) => `export function f${i}_${j}(x: number): number {\n  return x * ${j} + ${i};\n}\n`,
    ).join('\n');
    f.write(`gen/m${i}.ts`, body);
  }
}

async function started(ix: CodeIndex, params: IndexParams): Promise<JobStatus> {
  const result = await ix.start(params, PROVENANCE);
  if (result.kind !== 'job') throw new Error('expected a job');
  return result.job;
}

function deadPid(): number {
  return Number(
    execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }),
  );
}

describe('jobs', () => {
  it('runs in a worker: store calls complete while a large job is still running', async () => {
    const f = await sampleTree();
    bigTree(f, 150);
    index = createCodeIndex(f.store, { batch: { files: 5 } });
    const job = await started(index, { path: f.root });
    const phases: string[] = [];
    const chunking = index.wait(job.id, {
      onProgress: (s) => phases.push(s.phase),
    });
    // Wait until it is chunking, then make calls a tool would make.
    while (!phases.includes('chunking') && !phases.includes('done')) {
      await index.wait(job.id, { timeoutMs: 100 });
      phases.push((await index.job(job.id)).phase);
    }
    await f.store.write((tx) => tx.run('CREATE TABLE probe (x INTEGER)'));
    const status = await index.status('repo');
    const during = await index.job(job.id);
    expect(during.state).toBe('running');
    expect(status.collections[0]?.running?.id).toBe(job.id);
    expect(status.collections[0]?.state).toBe('indexing');
    const done = await chunking;
    expect(done.state, done.message ?? '').toBe('done');
    expect(done.files.indexed).toBe(154);
    expect(phases).toContain('chunking');
  });

  it('keeps one live job per collection: a second start returns the running one', async () => {
    const f = await sampleTree();
    bigTree(f, 30);
    index = createCodeIndex(f.store, { runner: 'inline' });
    const first = await started(index, { path: f.root });
    const second = await index.start({ path: f.root }, PROVENANCE);
    expect(second).toMatchObject({ kind: 'job', alreadyRunning: true, job: { id: first.id } });
    expect(second.kind === 'job' && second.message).toMatch(/already running/);
    const soon = await index.wait(first.id, { timeoutMs: 0 });
    expect(['queued', 'running', 'done']).toContain(soon.state);
    const aborted = new AbortController();
    aborted.abort(new Error('the client went away'));
    await expect(index.wait(first.id, { signal: aborted.signal })).rejects.toThrow(/went away/);
    expect((await index.wait(first.id)).state).toBe('done');
  });

  it('stop() cancels the jobs it runs and restores their collections', async () => {
    const f = await sampleTree();
    index = createCodeIndex(f.store);
    const first = await index.wait((await started(index, { path: f.root })).id);
    bigTree(f, 60);
    const job = await started(index, { path: f.root });
    await index.stop();
    const after = createCodeIndex(f.store, { runner: 'inline' });
    const end = await after.job(job.id);
    expect(end).toMatchObject({ state: 'cancelled', message: expect.stringMatching(/stopped/) });
    const c = (await after.status('repo')).collections[0];
    expect(c).toMatchObject({ state: 'ready', indexedAt: first.startedAt, running: null });
  });

  it('fails a job whose heartbeat is stale or whose process is gone, and restores the collection', async () => {
    const f = await sampleTree();
    index = createCodeIndex(f.store, { runner: 'inline', staleMs: 10_000 });
    const ok = await index.wait((await started(index, { path: f.root })).id);
    const collection = await f.store.get<{ id: number }>(
      "SELECT id FROM code_collections WHERE name = 'repo'",
    );
    const now = Date.now();
    const orphan = async (id: string, pid: number, beat: number): Promise<void> => {
      await f.store.run(
        `INSERT INTO code_jobs (id, collection_id, action, state, phase, pid, created_at, started_at, heartbeat_at)
         VALUES (?, ?, 'start', 'running', 'chunking', ?, ?, ?, ?)`,
        [id, collection?.id ?? 0, pid, beat, beat, beat],
      );
      await f.store.run("UPDATE code_collections SET state = 'indexing'");
    };
    await orphan('job-old-heartbeat', process.pid, now - 60_000);
    const status = await index.status('repo');
    expect(status.collections[0]).toMatchObject({
      state: 'ready',
      running: null,
      indexedAt: ok.startedAt,
    });
    const old = await index.job('job-old-heartbeat');
    expect(old).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/no heartbeat for 60 s/),
    });

    await orphan('job-dead-pid', deadPid(), Date.now());
    const next = await index.start({ path: f.root }, PROVENANCE);
    expect(next).toMatchObject({ kind: 'job', alreadyRunning: false });
    expect(await index.job('job-dead-pid')).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/is gone/),
    });
    if (next.kind === 'job') await index.wait(next.job.id);

    // SQLite is one machine: a row naming another host is still judged by its pid.
    await orphan('job-other-host', deadPid(), Date.now());
    await f.store.run("UPDATE code_jobs SET host = 'elsewhere' WHERE id = 'job-other-host'");
    expect(await index.job('job-other-host')).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/is gone/),
    });
  });

  it('cancels a running job from another connection and restores the previous index', async () => {
    const f = await sampleTree();
    index = createCodeIndex(f.store, { runner: 'inline' });
    const first = await index.wait((await started(index, { path: f.root })).id);
    bigTree(f, 40);
    const job = await started(index, { path: f.root });
    const other = await openSqliteStore(f.store.location);
    const elsewhere = createCodeIndex(other, { runner: 'inline' });
    const cancelled = await elsewhere.cancel(job.id);
    await other.close();
    expect(cancelled.state).toBe('cancelled');
    const end = await index.wait(job.id);
    expect(end.state).toBe('cancelled');
    const c = (await index.status('repo')).collections[0];
    expect(c).toMatchObject({ state: 'ready', indexedAt: first.startedAt, running: null });
  });

  it('clears a collection and every row under it, cancelling its job', async () => {
    const f = await sampleTree();
    index = createCodeIndex(f.store, { runner: 'inline' });
    await index.wait((await started(index, { path: f.root, collection: 'keep' })).id);
    await index.wait((await started(index, { path: f.root, collection: 'gone' })).id);
    bigTree(f, 20);
    const running = await started(index, { path: f.root, collection: 'gone' });
    const cleared = await index.clear('gone');
    expect(cleared).toMatchObject({ collection: 'gone', files: 4, cancelledJob: running.id });
    expect(cleared.chunks).toBeGreaterThan(0);
    await expect(index.status('gone')).rejects.toMatchObject({ code: 'not_found' });
    const left = await f.store.get<{ files: number; chunks: number; refs: number; jobs: number }>(
      `SELECT (SELECT COUNT(*) FROM code_files) AS files, (SELECT COUNT(*) FROM code_chunks) AS chunks,
         (SELECT COUNT(*) FROM code_refs) AS refs, (SELECT COUNT(*) FROM code_jobs) AS jobs`,
    );
    const keep = (await index.status('keep')).collections[0];
    expect(left).toMatchObject({ files: keep?.files, chunks: keep?.chunks, jobs: 1 });
    const all = await index.status();
    expect(all.collections.map((c) => c.collection)).toEqual(['keep']);
    await expect(index.clear('gone')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reports counters, skip reasons and rate in status, for every collection', async () => {
    const f = await sampleTree();
    f.write('node_modules/x/index.js', 'x');
    f.write('yarn.lock', '');
    index = createCodeIndex(f.store, { runner: 'inline' });
    await index.wait((await started(index, { path: f.root, collection: 'a' })).id);
    await index.wait(
      (await started(index, { path: f.root, collection: 'b', extensions: ['py'] })).id,
    );
    const all = await index.status();
    expect(all.collections.map((c) => [c.collection, c.files])).toEqual([
      ['a', 4],
      ['b', 1],
    ]);
    const b = all.collections[1]?.lastJob;
    expect(b?.skippedByReason).toMatchObject({ default_dir: 1, lock_file: 1, extension: 3 });
    expect(b?.files.skipped).toBe(5);
    expect(b?.progress).toBe(100);
    expect(b?.rate.linesPerSecond).toBeGreaterThanOrEqual(0);
    expect(all.collections[0]?.ageMs).toBeGreaterThanOrEqual(0);
  });

  it('runs in-process on a :memory: store', async () => {
    const f = await sampleTree();
    const memory = await openSqliteStore(':memory:');
    index = createCodeIndex(memory);
    const done = await index.wait((await started(index, { path: f.root })).id);
    expect(done.state).toBe('done');
    expect(done.files.indexed).toBe(4);
    await index.stop();
    await memory.close();
  });
});
