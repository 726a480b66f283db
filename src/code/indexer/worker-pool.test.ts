// The worker pool: a thread is reused for the next job once its job has its final row, a job
// whose runner cannot even open the store settles with the reason (the thread survives), and
// close() ends every thread.
import { afterEach, describe, expect, it } from 'vitest';

import { fixture, type Fixture, PROVENANCE, SOURCES } from '../../../test/code/indexer-fixtures.js';
import { DEFAULT_BATCH } from './code-index.js';
import type { WorkerJob } from './job-worker.js';
import { checkParams } from './params.js';
import { queueJob } from './queue.js';
import { WorkerPool } from './worker-pool.js';

let fx: Fixture | undefined;
let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  await fx?.cleanup();
  fx = undefined;
  pool = undefined;
});

async function queued(f: Fixture, collection: string): Promise<WorkerJob> {
  const params = await checkParams({ path: f.root, collection }, undefined);
  const q = await queueJob(
    f.store,
    params,
    { provenance: PROVENANCE },
    { repoId: null, projectId: null },
    undefined,
    { now: Date.now(), host: 'test-host' },
  );
  return {
    location: f.store.location,
    jobId: q.row.id,
    collectionId: q.row.collection_id,
    collection,
    params,
    provenanceId: q.provenanceId,
    createdAt: q.row.created_at,
    host: 'test-host',
    heartbeatMs: 1000,
    batch: DEFAULT_BATCH,
  };
}

describe('WorkerPool', () => {
  it('runs jobs one after another on one thread, and reports a runner that cannot start', async () => {
    fx = await fixture();
    for (const [path, text] of Object.entries(SOURCES)) fx.write(path, text);
    pool = new WorkerPool(60_000);
    const rows: string[] = [];
    const first = await pool.run(await queued(fx, 'one'), (r) => rows.push(r.state)).done;
    expect(first).toMatchObject({ crash: null, row: { state: 'done', files_indexed: 4 } });
    expect(rows).toContain('running');
    const second = await pool.run(await queued(fx, 'two'), () => undefined).done;
    expect(second.row?.state).toBe('done');
    expect(pool.size).toBe(1);
    const broken = { ...(await queued(fx, 'three')), location: fx.root }; // a directory, not a database
    const failed = await pool.run(broken, () => undefined).done;
    expect(failed.row).toBeNull();
    expect(failed.crash).toMatch(/directory|unable to open|SQLITE/i);
    expect(pool.size).toBe(1);
    await pool.close();
    expect(pool.size).toBe(0);
  });
});
