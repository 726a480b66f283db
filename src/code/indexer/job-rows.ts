// The `code_jobs` rows: how a job's counters are stored and read back as a JobStatus. Every
// process reads progress from here, so a job started elsewhere is visible. Portable SQL.
import type { Queryable } from '../../store/index.js';
import type { NothingToIndex, SkipReason } from '../walk/index.js';
import type { JobError, JobPhase, JobState, JobStatus } from './types.js';

/** Errors kept per job (the count is exact). */
export const MAX_JOB_ERRORS = 50;

/** A job row with its collection's name. */
export interface JobRow extends JobCounters {
  id: string;
  collection_id: number;
  collection: string;
  action: 'start' | 'git_index';
  state: JobState;
  pid: number | null;
  /** The machine of the process that queued or runs it (null: written before migration 35). */
  host: string | null;
  created_at: number;
  started_at: number | null;
  heartbeat_at: number | null;
  finished_at: number | null;
  outcome: string | null;
}

/** What a job ended with, beyond its counters. */
export interface JobOutcome {
  message: string | null;
  nothingToIndex: NothingToIndex | null;
}

export const JOB_SELECT = `SELECT j.id, j.collection_id, c.name AS collection, j.action, j.state,
  j.phase, j.files_seen, j.files_total, j.files_indexed, j.files_unchanged, j.files_removed,
  j.files_skipped, j.skipped_by_reason, j.chunks, j.lines, j.errors, j.error_count, j.pid,
  j.host, j.created_at, j.started_at, j.heartbeat_at, j.finished_at, j.outcome
  FROM code_jobs j JOIN code_collections c ON c.id = j.collection_id`;

export const LIVE_STATES = "('queued','running')";

function parsed<T>(json: string | null, fallback: T): T {
  if (json === null) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

function progressOf(row: JobRow): number | null {
  if (row.state === 'done') return 100;
  if (row.phase === 'walking' || row.phase === 'queued') return null;
  if (row.files_total === 0) return row.state === 'running' ? 0 : null;
  return Math.min(99, Math.floor((100 * row.files_seen) / row.files_total));
}

function rateOf(row: JobRow, now: number): JobStatus['rate'] {
  const end = row.finished_at ?? now;
  const seconds = row.started_at === null ? 0 : Math.max(0, end - row.started_at) / 1000;
  if (seconds <= 0) return { linesPerSecond: 0, filesPerSecond: 0 };
  return {
    linesPerSecond: Math.round(row.lines / seconds),
    filesPerSecond: Math.round((row.files_seen / seconds) * 10) / 10,
  };
}

/** The row as a JobStatus (`now` is for the rate of a job still running). */
export function jobStatusOf(row: JobRow, now: number): JobStatus {
  const outcome = parsed<JobOutcome>(row.outcome, { message: null, nothingToIndex: null });
  return {
    id: row.id,
    collection: row.collection,
    action: row.action,
    state: row.state,
    phase: row.phase,
    files: {
      total: row.files_total,
      seen: row.files_seen,
      indexed: row.files_indexed,
      unchanged: row.files_unchanged,
      removed: row.files_removed,
      skipped: row.files_skipped,
    },
    skippedByReason: parsed<Partial<Record<SkipReason, number>>>(row.skipped_by_reason, {}),
    chunks: row.chunks,
    lines: row.lines,
    errors: parsed<JobError[]>(row.errors, []),
    errorCount: row.error_count,
    progress: progressOf(row),
    rate: rateOf(row, now),
    message: outcome.message ?? null,
    nothingToIndex: outcome.nothingToIndex ?? null,
    createdAt: row.created_at,
    startedAt: row.started_at,
    heartbeatAt: row.heartbeat_at,
    finishedAt: row.finished_at,
  };
}

export async function loadJob(q: Queryable, jobId: string): Promise<JobRow | undefined> {
  return q.get<JobRow>(`${JOB_SELECT} WHERE j.id = ?`, [jobId]);
}

/** The live (queued or running) job of a collection, if any. */
export async function liveJob(q: Queryable, collectionId: number): Promise<JobRow | undefined> {
  return q.get<JobRow>(
    `${JOB_SELECT} WHERE j.collection_id = ? AND j.state IN ${LIVE_STATES}
     ORDER BY j.created_at DESC LIMIT 1`,
    [collectionId],
  );
}

/** The most recent job of a collection, if any. */
export async function latestJob(q: Queryable, collectionId: number): Promise<JobRow | undefined> {
  return q.get<JobRow>(
    `${JOB_SELECT} WHERE j.collection_id = ? ORDER BY j.created_at DESC, j.id DESC LIMIT 1`,
    [collectionId],
  );
}

/** The counters a runner writes with each batch. */
export interface JobCounters {
  phase: JobPhase;
  files_seen: number;
  files_total: number;
  files_indexed: number;
  files_unchanged: number;
  files_removed: number;
  files_skipped: number;
  skipped_by_reason: string;
  chunks: number;
  lines: number;
  errors: string;
  error_count: number;
}

/**
 * Writes the counters and a heartbeat while the job is still running. Returns false when it is
 * not (cancelled, failed as abandoned, or its collection cleared): the runner must stop.
 */
export async function saveProgress(
  tx: Queryable,
  jobId: string,
  c: JobCounters,
  now: number,
): Promise<boolean> {
  const result = await tx.run(
    `UPDATE code_jobs SET phase = ?, files_seen = ?, files_total = ?, files_indexed = ?,
       files_unchanged = ?, files_removed = ?, files_skipped = ?, skipped_by_reason = ?,
       chunks = ?, lines = ?, errors = ?, error_count = ?, heartbeat_at = ?
     WHERE id = ? AND state = 'running'`,
    [
      c.phase,
      c.files_seen,
      c.files_total,
      c.files_indexed,
      c.files_unchanged,
      c.files_removed,
      c.files_skipped,
      c.skipped_by_reason,
      c.chunks,
      c.lines,
      c.errors,
      c.error_count,
      now,
      jobId,
    ],
  );
  return result.changes > 0;
}

/** Ends a live job (state `done`, `failed` or `cancelled`); false when it was no longer live. */
export async function endJob(
  tx: Queryable,
  jobId: string,
  state: 'done' | 'failed' | 'cancelled',
  outcome: JobOutcome,
  now: number,
): Promise<boolean> {
  const result = await tx.run(
    `UPDATE code_jobs SET state = ?, phase = ?, outcome = ?, finished_at = ?, heartbeat_at = ?
     WHERE id = ? AND state IN ${LIVE_STATES}`,
    [state, state, JSON.stringify(outcome), now, now, jobId],
  );
  return result.changes > 0;
}
