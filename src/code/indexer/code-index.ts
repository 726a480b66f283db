// createCodeIndex: the indexer's domain API over one store. start() checks the parameters,
// queues a job and runs it off the request path (a worker thread); status/job/wait read the job
// rows every process shares; clear, freshness and the watchers complete it. Never ranks.
import type { Provenance } from '../../activity/index.js';
import { NotFoundError } from '../../shared/index.js';
import type { Store } from '../../store/index.js';
import { clearCollection } from './clear.js';
import {
  allCollections,
  type CollectionRow,
  findCollection,
  optionsOf,
} from './collection-rows.js';
import { checkFreshness } from './freshness.js';
import { cancelJobRow, sweepStale } from './job-control.js';
import { jobStatusOf, loadJob } from './job-rows.js';
import { LocalJobs } from './local-jobs.js';
import { checkParams, type JobParams } from './params.js';
import { planJob } from './plan.js';
import { type Asker, queueJob, repoIdentity } from './queue.js';
import { collectionStatus } from './status.js';
import type {
  BatchLimits,
  CodeIndex,
  CodeIndexOptions,
  IndexParams,
  JobStatus,
  StartResult,
  WaitOptions,
} from './types.js';
import { WatchManager } from './watch-manager.js';

export const DEFAULT_BATCH: BatchLimits = { files: 50, chunks: 250, ms: 250 };
const POLL_MS = 500;
const STOP_GRACE_MS = 5000;

const terminal = (s: JobStatus): boolean =>
  s.state === 'done' || s.state === 'failed' || s.state === 'cancelled';

function startMessage(job: JobStatus, alreadyRunning: boolean): string {
  if (alreadyRunning) {
    return `an index job for ${job.collection} is already running (${job.id}); this call returns it instead of starting another`;
  }
  return `index job ${job.id} started for ${job.collection}; it runs in the background (index_status reports progress)`;
}

/**
 * The code index of `store`. Errors: InvalidInputError / PathRefusedError naming the field for
 * bad parameters, NotFoundError for an unknown collection, job or ref.
 */
export function createCodeIndex(store: Store, options: CodeIndexOptions = {}): CodeIndex {
  const clock = options.clock ?? Date.now;
  const staleMs = options.staleMs ?? 30_000;
  const local = new LocalJobs({
    store,
    clock,
    runner: store.location === ':memory:' ? 'inline' : (options.runner ?? 'worker'),
    heartbeatMs: options.heartbeatMs ?? 2_000,
    batch: { ...DEFAULT_BATCH, ...options.batch },
    workerIdleMs: options.workerIdleMs ?? 30_000,
    onProgress: options.onProgress,
  });

  const sweep = (): Promise<string[]> => sweepStale(store, local.ids(), clock(), staleMs);

  async function collectionRow(name: string): Promise<CollectionRow> {
    const row = typeof name === 'string' ? await findCollection(store, name) : undefined;
    if (row === undefined) throw new NotFoundError(`no collection named ${JSON.stringify(name)}`);
    return row;
  }

  async function job(jobId: string): Promise<JobStatus> {
    await sweep();
    const row = await loadJob(store, jobId);
    if (row === undefined) throw new NotFoundError(`no index job ${JSON.stringify(jobId)}`);
    return jobStatusOf(row, clock());
  }

  async function launch(
    params: JobParams,
    asker: Asker,
    watch: boolean | undefined,
  ): Promise<StartResult> {
    await sweep();
    const repo = await repoIdentity(params.root);
    const queued = await queueJob(store, params, asker, repo, watch, clock());
    if (!queued.alreadyRunning) local.launch(queued.row, params, queued.provenanceId);
    const status = jobStatusOf(queued.row, clock());
    return {
      kind: 'job',
      job: status,
      alreadyRunning: queued.alreadyRunning,
      message: startMessage(status, queued.alreadyRunning),
    };
  }

  async function wait(jobId: string, opts: WaitOptions = {}): Promise<JobStatus> {
    const deadline = opts.timeoutMs === undefined ? Infinity : clock() + opts.timeoutMs;
    let last = await job(jobId);
    opts.onProgress?.(last);
    while (!terminal(last) && clock() < deadline) {
      await local.next(jobId, Math.min(POLL_MS, deadline - clock()), opts.signal);
      const next = await job(jobId);
      const moved =
        next.state !== last.state ||
        next.phase !== last.phase ||
        next.files.seen !== last.files.seen ||
        next.files.total !== last.files.total ||
        next.chunks !== last.chunks;
      last = next;
      if (moved) opts.onProgress?.(last);
    }
    return last;
  }

  const watches = new WatchManager({
    store,
    debounceMs: options.watchDebounceMs ?? 500,
    onError: options.onWatchError ?? (() => undefined),
    reindex: async (row) => {
      const params = await checkParams(
        { path: row.root, collection: row.name, ...(optionsOf(row).filters ?? {}) },
        options.allowedRoots,
      );
      const asked = await store.get<{ p: number | null }>(
        'SELECT provenance_id AS p FROM code_collections WHERE id = ?',
        [row.id],
      );
      if (asked?.p == null) throw new Error(`collection ${row.name} records no provenance`);
      const started = await launch(params, { provenanceId: asked.p }, undefined);
      if (started.kind === 'job') await wait(started.job.id);
    },
  });

  return {
    async start(params: IndexParams, provenance: Provenance): Promise<StartResult> {
      const checked = await checkParams(params, options.allowedRoots);
      if (params.dryRun === true) return { kind: 'plan', plan: await planJob(checked) };
      const started = await launch(checked, { provenance }, params.watch);
      if (params.watch === true) await watches.watch(checked.collection);
      if (params.watch === false) watches.unwatch(checked.collection);
      return started;
    },
    async plan(params) {
      return planJob(await checkParams(params, options.allowedRoots));
    },
    async status(collection) {
      await sweep();
      const rows =
        collection === undefined ? await allCollections(store) : [await collectionRow(collection)];
      const now = clock();
      return { collections: await Promise.all(rows.map((r) => collectionStatus(store, r, now))) };
    },
    job,
    wait,
    async cancel(jobId) {
      const row = await loadJob(store, jobId);
      if (row === undefined) throw new NotFoundError(`no index job ${JSON.stringify(jobId)}`);
      const message = 'cancelled on request';
      await store.write((tx) => cancelJobRow(tx, row, message, clock()));
      local.cancel(jobId, message);
      return job(jobId);
    },
    async clear(collection) {
      const row = await collectionRow(collection);
      watches.unwatch(row.name);
      const result = await clearCollection(store, row, clock());
      if (result.cancelledJob !== null)
        local.cancel(result.cancelledJob, 'the collection was cleared');
      return result;
    },
    async freshness(collection) {
      const row = await collectionRow(collection);
      return checkFreshness(store, row, clock(), { maxFiles: 100_000, ms: 1000 });
    },
    watchCollection: (collection) => watches.watch(collection),
    async unwatchCollection(collection) {
      const row = await collectionRow(collection);
      watches.unwatch(row.name);
      await store.run('UPDATE code_collections SET watch = 0 WHERE id = ?', [row.id]);
    },
    resumeWatches: () => watches.resume(),
    watching: () => watches.names(),
    async stop() {
      watches.closeAll();
      await local.stopAll('cancelled: the process running it stopped', STOP_GRACE_MS);
    },
  };
}
