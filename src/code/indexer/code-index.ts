// createCodeIndex: the indexer's domain API over one store. start() checks the parameters,
// queues a job and runs it off the request path (a worker thread); status/job/wait read the job
// rows every process shares; clear, freshness and the watchers complete it. Never ranks.
import type { Provenance } from '../../activity/index.js';
import { NotFoundError } from '../../shared/index.js';
import type { Store } from '../../store/index.js';
import type { IndexPlan } from '../walk/index.js';
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
import { defaultHostId } from './liveness.js';
import { LocalJobs } from './local-jobs.js';
import { checkParams, type JobParams } from './params.js';
import { planJob } from './plan.js';
import { type Asker, queueJob, repoIdentity } from './queue.js';
import { collectionStatus } from './status.js';
import type {
  BatchLimits,
  ClearResult,
  CodeIndex,
  CodeIndexOptions,
  FreshnessReport,
  GitIndexPlan,
  IndexParams,
  IndexStatus,
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

/** A job's status moved in a way a progress listener cares about. */
function moved(a: JobStatus, b: JobStatus): boolean {
  return (
    a.state !== b.state ||
    a.phase !== b.phase ||
    a.files.seen !== b.files.seen ||
    a.files.total !== b.files.total ||
    a.chunks !== b.chunks
  );
}

class CodeIndexService implements CodeIndex {
  readonly #store: Store;
  readonly #options: CodeIndexOptions;
  readonly #clock: () => number;
  readonly #host: string;
  readonly #local: LocalJobs;
  readonly #watches: WatchManager;

  constructor(store: Store, options: CodeIndexOptions) {
    this.#store = store;
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#host = options.hostId ?? defaultHostId();
    this.#local = new LocalJobs({
      store,
      clock: this.#clock,
      host: this.#host,
      runner: store.location === ':memory:' ? 'inline' : (options.runner ?? 'worker'),
      heartbeatMs: options.heartbeatMs ?? 2_000,
      batch: { ...DEFAULT_BATCH, ...options.batch },
      workerIdleMs: options.workerIdleMs ?? 30_000,
      onProgress: options.onProgress,
    });
    this.#watches = new WatchManager({
      store,
      debounceMs: options.watchDebounceMs ?? 500,
      onError: options.onWatchError ?? (() => undefined),
      reindex: (row) => this.#reindex(row),
    });
  }

  #sweep(): Promise<string[]> {
    return sweepStale(this.#store, this.#local.ids(), {
      host: this.#host,
      now: this.#clock(),
      staleMs: this.#options.staleMs ?? 30_000,
    });
  }

  async #collection(name: string): Promise<CollectionRow> {
    const row = typeof name === 'string' ? await findCollection(this.#store, name) : undefined;
    if (row === undefined) throw new NotFoundError(`no collection named ${JSON.stringify(name)}`);
    return row;
  }

  async #launch(params: JobParams, asker: Asker, watch: boolean | undefined): Promise<StartResult> {
    await this.#sweep();
    const repo = await repoIdentity(params.root);
    const at = { now: this.#clock(), host: this.#host };
    const queued = await queueJob(this.#store, params, asker, repo, watch, at);
    if (!queued.alreadyRunning) this.#local.launch(queued.row, params, queued.provenanceId);
    const job = jobStatusOf(queued.row, this.#clock());
    const { alreadyRunning } = queued;
    return { kind: 'job', job, alreadyRunning, message: startMessage(job, alreadyRunning) };
  }

  /** A watcher's incremental job, with the filters and provenance of the collection's last job. */
  async #reindex(row: CollectionRow): Promise<void> {
    const filters = optionsOf(row).filters ?? {};
    const params = await checkParams(
      { path: row.root, collection: row.name, ...filters },
      this.#options.allowedRoots,
    );
    const asked = await this.#store.get<{ p: number | null }>(
      'SELECT provenance_id AS p FROM code_collections WHERE id = ?',
      [row.id],
    );
    if (asked?.p == null) throw new Error(`collection ${row.name} records no provenance`);
    const started = await this.#launch(params, { provenanceId: asked.p }, undefined);
    if (started.kind === 'job') await this.wait(started.job.id);
  }

  async start(params: IndexParams, provenance: Provenance): Promise<StartResult> {
    const checked = await checkParams(params, this.#options.allowedRoots);
    if (params.dryRun === true) return { kind: 'plan', plan: await planJob(checked) };
    const started = await this.#launch(checked, { provenance }, params.watch);
    if (params.watch === true) await this.#watches.watch(checked.collection);
    if (params.watch === false) this.#watches.unwatch(checked.collection);
    return started;
  }

  async plan(params: IndexParams): Promise<IndexPlan | GitIndexPlan> {
    return planJob(await checkParams(params, this.#options.allowedRoots));
  }

  async status(collection?: string): Promise<IndexStatus> {
    await this.#sweep();
    const rows =
      collection === undefined
        ? await allCollections(this.#store)
        : [await this.#collection(collection)];
    const now = this.#clock();
    return {
      collections: await Promise.all(rows.map((r) => collectionStatus(this.#store, r, now))),
    };
  }

  async job(jobId: string): Promise<JobStatus> {
    await this.#sweep();
    const row = await loadJob(this.#store, jobId);
    if (row === undefined) throw new NotFoundError(`no index job ${JSON.stringify(jobId)}`);
    return jobStatusOf(row, this.#clock());
  }

  async wait(jobId: string, opts: WaitOptions = {}): Promise<JobStatus> {
    opts.signal?.throwIfAborted();
    const deadline = opts.timeoutMs === undefined ? Infinity : this.#clock() + opts.timeoutMs;
    let last = await this.job(jobId);
    opts.onProgress?.(last);
    while (!terminal(last) && this.#clock() < deadline) {
      await this.#local.next(jobId, Math.min(POLL_MS, deadline - this.#clock()), opts.signal);
      const next = await this.job(jobId);
      const changed = moved(last, next);
      last = next;
      if (changed) opts.onProgress?.(last);
    }
    return last;
  }

  async cancel(jobId: string): Promise<JobStatus> {
    const row = await loadJob(this.#store, jobId);
    if (row === undefined) throw new NotFoundError(`no index job ${JSON.stringify(jobId)}`);
    const message = 'cancelled on request';
    await this.#store.write((tx) => cancelJobRow(tx, row, message, this.#clock()));
    this.#local.cancel(jobId, message);
    return this.job(jobId);
  }

  async clear(collection: string): Promise<ClearResult> {
    const row = await this.#collection(collection);
    this.#watches.unwatch(row.name);
    const result = await clearCollection(this.#store, row, this.#clock());
    if (result.cancelledJob !== null)
      this.#local.cancel(result.cancelledJob, 'the collection was cleared');
    return result;
  }

  async freshness(collection: string): Promise<FreshnessReport> {
    const row = await this.#collection(collection);
    return checkFreshness(this.#store, row, this.#clock(), { maxFiles: 100_000, ms: 1000 });
  }

  watchCollection(collection: string): Promise<void> {
    return this.#watches.watch(collection);
  }

  async unwatchCollection(collection: string): Promise<void> {
    const row = await this.#collection(collection);
    this.#watches.unwatch(row.name);
    await this.#store.run('UPDATE code_collections SET watch = 0 WHERE id = ?', [row.id]);
  }

  resumeWatches(): Promise<string[]> {
    return this.#watches.resume();
  }

  watching(): string[] {
    return this.#watches.names();
  }

  async stop(): Promise<void> {
    this.#watches.closeAll();
    await this.#local.stopAll('cancelled: the process running it stopped', STOP_GRACE_MS);
  }
}

/**
 * The code index of `store` (see docs/code-context.md, "Indexing"). Errors: InvalidInputError /
 * PathRefusedError naming the field for bad parameters, NotFoundError for an unknown
 * collection, job or ref.
 */
export function createCodeIndex(store: Store, options: CodeIndexOptions = {}): CodeIndex {
  return new CodeIndexService(store, options);
}
