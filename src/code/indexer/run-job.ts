// Runs one index job to its end, in whichever thread holds `store`: takes the job's run lock,
// claims the queued row, runs the work-tree or git runner, then in one transaction either
// completes the collection or restores it (a failed job never leaves a partial index claiming to
// be complete), and gives the lock up. On PostgreSQL the lock tells every machine it is alive.
import type { LockHold, Queryable, Store } from '../../store/index.js';
import {
  CHUNK_FORMAT,
  type CollectionOptions,
  completeCollection,
  optionsOf,
  restoreCollection,
} from './collection-rows.js';
import type { JobOutcome, JobRow } from './job-rows.js';
import { JobSession, JobStoppedError } from './job-session.js';
import { jobLockName } from './liveness.js';
import type { JobParams } from './params.js';
import { runGitIndex } from './run-git.js';
import { NothingToIndexError, runWorktree } from './run-worktree.js';
import type { BatchLimits } from './types.js';

/** Everything a runner needs; serialisable except `store`, `clock` and `onProgress`. */
export interface RunJobInput {
  store: Store;
  jobId: string;
  collectionId: number;
  collection: string;
  params: JobParams;
  provenanceId: number;
  createdAt: number;
  /** This machine, recorded with the pid by the claim. */
  host: string;
  heartbeatMs: number;
  batch: BatchLimits;
  clock: () => number;
  onProgress: (row: JobRow) => void;
  /** Aborting it cancels the job (stop(), a cancel message to the worker). */
  signal?: AbortSignal;
}

/** The runner was told to stop by its owner: the job ends `cancelled`. */
export class JobCancelledError extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'JobCancelledError';
  }
}

/** Moves the job from queued to running; false when it was cancelled before it began. */
async function claim(input: RunJobInput, now: number): Promise<boolean> {
  const r = await input.store.run(
    `UPDATE code_jobs SET state = 'running', phase = 'walking', started_at = ?, heartbeat_at = ?,
       pid = ?, host = ? WHERE id = ? AND state = 'queued'`,
    [now, now, process.pid, input.host, input.jobId],
  );
  return r.changes > 0;
}

async function storedOptions(q: Queryable, collectionId: number): Promise<CollectionOptions> {
  const row = await q.get<{ options: string }>(
    'SELECT options FROM code_collections WHERE id = ?',
    [collectionId],
  );
  return row === undefined ? {} : optionsOf(row);
}

function failure(err: unknown): { state: 'failed' | 'cancelled'; outcome: JobOutcome } {
  if (err instanceof JobCancelledError) {
    return { state: 'cancelled', outcome: { message: err.message, nothingToIndex: null } };
  }
  if (err instanceof NothingToIndexError) {
    return {
      state: 'failed',
      outcome: { message: err.message, nothingToIndex: err.nothingToIndex },
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { state: 'failed', outcome: { message: message.slice(0, 2000), nothingToIndex: null } };
}

/** Runs the job; false when it was stopped elsewhere just before it could complete. */
async function execute(
  session: JobSession,
  input: RunJobInput,
  startedAt: number,
): Promise<boolean> {
  const { params, collectionId } = input;
  const before = await storedOptions(input.store, collectionId);
  const ctx = {
    collectionId,
    provenanceId: input.provenanceId,
    params,
    batch: input.batch,
    force: before.format !== undefined && before.format !== CHUNK_FORMAT,
  };
  const options: CollectionOptions = {
    action: params.action,
    filters: params.filters,
    format: CHUNK_FORMAT,
  };
  if (params.action === 'git_index') {
    options.refs = { ...(before.refs ?? {}), ...(await runGitIndex(session, ctx)) };
  } else {
    await runWorktree(session, ctx);
  }
  const mode = params.action === 'git_index' ? 'git' : 'filesystem';
  return session.end('done', { message: null, nothingToIndex: null }, (tx) =>
    completeCollection(tx, collectionId, { indexedAt: startedAt, options, mode }, session.now()),
  );
}

/** Ends the job for `reason` (failed, or cancelled by its owner) and restores the collection. */
async function endFor(session: JobSession, input: RunJobInput, reason: unknown): Promise<JobRow> {
  const { state, outcome } = failure(reason);
  await session
    .end(state, outcome, (tx) =>
      restoreCollection(tx, input.collectionId, outcome.message ?? state, session.now()),
    )
    .catch(() => undefined);
  return session.snapshot(state, outcome, session.now());
}

/**
 * Runs the job `input.jobId` (queued by start()) to its end and returns its final row as this
 * runner saw it. Never throws for the job's own failures: they end the job `failed`. The job's
 * run lock is taken before the claim and given up after the job's final row is written, so
 * the lock of a row still `running` is free only when its runner's process or connection died.
 */
export async function runJob(input: RunJobInput): Promise<JobRow> {
  const startedAt = input.clock();
  const session = new JobSession({ ...input, action: input.params.action, startedAt });
  let hold: LockHold | null;
  try {
    hold = await input.store.locks.tryHold(jobLockName(input.jobId));
  } catch (err) {
    return endFor(session, input, err);
  }
  if (hold === null) {
    const message = 'another runner holds this job';
    return session.snapshot('cancelled', { message, nothingToIndex: null });
  }
  try {
    return await runClaimed(session, input, startedAt);
  } finally {
    await hold.release();
  }
}

async function runClaimed(
  session: JobSession,
  input: RunJobInput,
  startedAt: number,
): Promise<JobRow> {
  if (!(await claim(input, startedAt))) {
    return session.snapshot('cancelled', {
      message: 'cancelled before it started',
      nothingToIndex: null,
    });
  }
  const onAbort = (): void => {
    const reason: unknown = input.signal?.reason;
    session.abort(reason instanceof Error ? reason : new JobCancelledError());
  };
  input.signal?.addEventListener('abort', onAbort, { once: true });
  if (input.signal?.aborted === true) onAbort();
  session.startHeartbeat();
  try {
    const completed = await execute(session, input, startedAt);
    return session.snapshot(completed ? 'done' : 'cancelled', undefined, session.now());
  } catch (err) {
    const reason = session.signal.aborted ? (session.signal.reason as unknown) : err;
    if (reason instanceof JobStoppedError) return session.snapshot('cancelled');
    return await endFor(session, input, reason);
  } finally {
    session.stopHeartbeat();
    input.signal?.removeEventListener('abort', onAbort);
  }
}
