// The jobs this process runs: each on a worker thread (its own connection to the database file)
// or, for a `:memory:` store or `runner: 'inline'`, on this thread. Relays their progress to the
// listeners waiting on them, and cancels them on stop().
import type { Store } from '../../store/index.js';
import { failJob } from './job-control.js';
import { type JobRow, jobStatusOf } from './job-rows.js';
import type { WorkerJob } from './job-worker.js';
import type { JobParams } from './params.js';
import { JobCancelledError, runJob } from './run-job.js';
import type { BatchLimits, JobStatus } from './types.js';
import { WorkerPool } from './worker-pool.js';

export interface LocalJobsDeps {
  store: Store;
  clock: () => number;
  /** This process's machine, recorded by the runner's claim. */
  host: string;
  runner: 'worker' | 'inline';
  heartbeatMs: number;
  batch: BatchLimits;
  /** How long an idle worker thread waits for the next job. */
  workerIdleMs: number;
  onProgress: ((status: JobStatus) => void) | undefined;
}

/** What a runner needs besides the store, the clock and the progress callback. */
type RunInput = Omit<WorkerJob, 'location'>;

interface Running {
  cancel(message: string): void;
  terminate(): Promise<void>;
  done: Promise<void>;
}

export class LocalJobs {
  readonly #deps: LocalJobsDeps;
  readonly #jobs = new Map<string, Running>();
  readonly #listeners = new Map<string, Set<() => void>>();
  readonly #pool: WorkerPool;

  constructor(deps: LocalJobsDeps) {
    this.#deps = deps;
    this.#pool = new WorkerPool(deps.workerIdleMs);
  }

  /** Ids of the jobs running here (the stale sweep leaves them alone). */
  ids(): ReadonlySet<string> {
    return new Set(this.#jobs.keys());
  }

  #report(row: JobRow): void {
    this.#deps.onProgress?.(jobStatusOf(row, this.#deps.clock()));
    for (const wake of this.#listeners.get(row.id) ?? []) wake();
  }

  /** Runs the job on this thread. */
  #inline(input: RunInput): Running {
    const controller = new AbortController();
    const d = this.#deps;
    const report = (r: JobRow): void => this.#report(r);
    const done = runJob({
      ...input,
      store: d.store,
      clock: d.clock,
      onProgress: report,
      signal: controller.signal,
    });
    return {
      cancel: (message) => controller.abort(new JobCancelledError(message)),
      terminate: () => Promise.resolve(),
      done: done.then(report, () => undefined),
    };
  }

  /** Runs the job on a pool thread; a thread that dies fails its job at once. */
  #onWorker(input: RunInput, row: JobRow): Running {
    const d = this.#deps;
    const report = (r: JobRow): void => this.#report(r);
    const worker = this.#pool.run({ ...input, location: d.store.locator }, report);
    const done = worker.done.then(async ({ row: last, crash }) => {
      if (crash !== null) {
        const message = `the index worker failed: ${crash.slice(0, 1000)}`;
        await failJob(d.store, row, message, d.clock()).catch(() => false);
      }
      if (last !== null) report(last);
    });
    return { cancel: (m) => worker.cancel(m), terminate: () => worker.terminate(), done };
  }

  /** Starts the runner of a queued job. */
  launch(row: JobRow, params: JobParams, provenanceId: number): void {
    const d = this.#deps;
    const input: RunInput = {
      jobId: row.id,
      collectionId: row.collection_id,
      collection: row.collection,
      params,
      provenanceId,
      createdAt: row.created_at,
      host: d.host,
      heartbeatMs: d.heartbeatMs,
      batch: d.batch,
    };
    const running = d.runner === 'inline' ? this.#inline(input) : this.#onWorker(input, row);
    this.#jobs.set(row.id, running);
    void running.done.finally(() => {
      this.#jobs.delete(row.id);
      for (const wake of this.#listeners.get(row.id) ?? []) wake();
    });
  }

  /** Resolves on the job's next progress report, after `ms`, or rejects when `signal` aborts. */
  next(jobId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const listeners = this.#listeners.get(jobId) ?? new Set();
      this.#listeners.set(jobId, listeners);
      const finish = (): void => {
        clearTimeout(timer);
        listeners.delete(finish);
        if (listeners.size === 0) this.#listeners.delete(jobId);
        signal?.removeEventListener('abort', abort);
      };
      const wake = (): void => {
        finish();
        resolve();
      };
      const abort = (): void => {
        finish();
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      listeners.add(wake);
      if (signal?.aborted === true) abort();
      else signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Tells the runner of a job running here to stop (its row is already ended). */
  cancel(jobId: string, message: string): void {
    this.#jobs.get(jobId)?.cancel(message);
  }

  /** Cancels every job running here and waits up to `graceMs` before terminating workers. */
  async stopAll(message: string, graceMs: number): Promise<void> {
    const all = [...this.#jobs.values()];
    for (const job of all) job.cancel(message);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    const outcome = await Promise.race([Promise.all(all.map((j) => j.done)), late]);
    clearTimeout(timer);
    if (outcome === 'late') await Promise.all(all.map((j) => j.terminate()));
    await Promise.all(all.map((j) => j.done));
    await this.#pool.close();
  }
}
