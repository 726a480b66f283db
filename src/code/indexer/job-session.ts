// A runner's handle on its job: every write goes through one transaction that also saves the
// counters and checks the job is still running (a cancel or a clear from any process stops it
// at its next batch), a heartbeat proves the runner alive, and each save is reported upward.
import type { Queryable, Store } from '../../store/index.js';
import { endJob, type JobOutcome, type JobRow, saveProgress } from './job-rows.js';
import { type BatchDelta, JobProgress, NO_DELTA } from './progress.js';

/** The job is no longer running (cancelled, abandoned or cleared): the runner stops. */
export class JobStoppedError extends Error {
  constructor(message = 'the job is no longer running (cancelled or cleared)') {
    super(message);
    this.name = 'JobStoppedError';
  }
}

export interface SessionDeps {
  store: Store;
  jobId: string;
  collectionId: number;
  collection: string;
  action: JobRow['action'];
  createdAt: number;
  startedAt: number;
  /** The runner's machine, as its claim recorded it. */
  host: string;
  clock: () => number;
  heartbeatMs: number;
  /** Progress saves at most this often outside batches (walking, unchanged files). */
  saveEveryMs?: number;
  onProgress: (row: JobRow) => void;
}

export class JobSession {
  readonly progress = new JobProgress();
  readonly #deps: SessionDeps;
  readonly #controller = new AbortController();
  #lastSave = 0;
  #saving = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(deps: SessionDeps) {
    this.#deps = deps;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get store(): Store {
    return this.#deps.store;
  }

  now(): number {
    return this.#deps.clock();
  }

  /** Starts the heartbeat; a heartbeat that finds the job stopped aborts `signal`. */
  startHeartbeat(): void {
    this.#timer = setInterval(() => {
      void this.#beat();
    }, this.#deps.heartbeatMs);
    this.#timer.unref();
  }

  stopHeartbeat(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Stops the runner from this side (stop(), a lost worker). */
  abort(reason: Error): void {
    this.#controller.abort(reason);
  }

  async #beat(): Promise<void> {
    try {
      const changed = await this.#deps.store.run(
        "UPDATE code_jobs SET heartbeat_at = ? WHERE id = ? AND state = 'running'",
        [this.now(), this.#deps.jobId],
      );
      if (changed.changes === 0) this.#controller.abort(new JobStoppedError());
    } catch {
      // A busy database delays a heartbeat; the next one retries.
    }
  }

  /**
   * Runs `fn` in one write transaction that also saves the counters (plus `fn`'s delta) and
   * checks the job still runs. Throws JobStoppedError when it does not (nothing is written).
   */
  async write(fn: (tx: Queryable) => Promise<BatchDelta>): Promise<void> {
    this.signal.throwIfAborted();
    const { store, jobId } = this.#deps;
    const now = this.now();
    const delta = await store.write(async (tx) => {
      const d = await fn(tx);
      if (!(await saveProgress(tx, jobId, this.progress.counters(d), now))) {
        throw new JobStoppedError();
      }
      return d;
    });
    this.progress.apply(delta);
    this.#lastSave = now;
    this.report();
  }

  /** Saves the counters now. */
  save(): Promise<void> {
    return this.write(() => Promise.resolve(NO_DELTA));
  }

  /**
   * Saves the counters if the last save is older than `saveEveryMs` (default 250 ms) and no
   * save is under way. Throws the abort reason once the job was stopped.
   */
  async saveSometimes(): Promise<void> {
    this.signal.throwIfAborted();
    if (this.#saving || this.now() - this.#lastSave < (this.#deps.saveEveryMs ?? 250)) return;
    this.#saving = true;
    try {
      await this.save();
    } finally {
      this.#saving = false;
    }
  }

  /** Ends the job in one transaction with `also` (the collection's update). */
  async end(
    state: 'done' | 'failed' | 'cancelled',
    outcome: JobOutcome,
    also: (tx: Queryable) => Promise<void>,
  ): Promise<boolean> {
    const { store, jobId } = this.#deps;
    const now = this.now();
    this.progress.phase = state;
    const ended = await store.write(async (tx) => {
      await saveProgress(tx, jobId, this.progress.counters(), now);
      const live = await endJob(tx, jobId, state, outcome, now);
      if (live) await also(tx);
      return live;
    });
    this.report(state, outcome, now);
    return ended;
  }

  /** The job as a row, from the counters in memory. */
  snapshot(state: JobRow['state'] = 'running', outcome?: JobOutcome, finishedAt?: number): JobRow {
    const d = this.#deps;
    const now = this.now();
    return {
      id: d.jobId,
      collection_id: d.collectionId,
      collection: d.collection,
      action: d.action,
      state,
      ...this.progress.counters(),
      pid: process.pid,
      host: d.host,
      created_at: d.createdAt,
      started_at: d.startedAt,
      heartbeat_at: now,
      finished_at: finishedAt ?? null,
      outcome: outcome === undefined ? null : JSON.stringify(outcome),
    };
  }

  report(state?: JobRow['state'], outcome?: JobOutcome, finishedAt?: number): void {
    this.#deps.onProgress(this.snapshot(state, outcome, finishedAt));
  }
}
