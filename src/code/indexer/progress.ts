// A running job's counters, kept by its runner and written to the job row with every batch (in
// the batch's own transaction, so the row never claims work the index does not hold). Pure.
import type { SkipReason } from '../walk/index.js';
import { type JobCounters, MAX_JOB_ERRORS } from './job-rows.js';
import type { JobError, JobPhase } from './types.js';

/** Counters a batch adds once its transaction commits. */
export interface BatchDelta {
  indexed: number;
  removed: number;
  chunks: number;
  lines: number;
}

export const NO_DELTA: BatchDelta = { indexed: 0, removed: 0, chunks: 0, lines: 0 };

export class JobProgress {
  phase: JobPhase = 'walking';
  total = 0;
  seen = 0;
  indexed = 0;
  unchanged = 0;
  removed = 0;
  skipped = 0;
  readonly skippedByReason: Partial<Record<SkipReason, number>> = {};
  chunks = 0;
  lines = 0;
  readonly errors: JobError[] = [];
  errorCount = 0;

  skip(reason: SkipReason, count = 1): void {
    this.skipped += count;
    this.skippedByReason[reason] = (this.skippedByReason[reason] ?? 0) + count;
  }

  error(path: string, err: unknown): void {
    this.errorCount += 1;
    if (this.errors.length < MAX_JOB_ERRORS) {
      const message = err instanceof Error ? err.message : String(err);
      this.errors.push({ path, message: message.slice(0, 500) });
    }
  }

  /** The counters as the row stores them, with `delta` (a batch not yet committed) added. */
  counters(delta: BatchDelta = NO_DELTA): JobCounters {
    return {
      phase: this.phase,
      files_seen: this.seen,
      files_total: this.total,
      files_indexed: this.indexed + delta.indexed,
      files_unchanged: this.unchanged,
      files_removed: this.removed + delta.removed,
      files_skipped: this.skipped,
      skipped_by_reason: JSON.stringify(this.skippedByReason),
      chunks: this.chunks + delta.chunks,
      lines: this.lines + delta.lines,
      errors: JSON.stringify(this.errors),
      error_count: this.errorCount,
    };
  }

  /** Adds a committed batch. */
  apply(delta: BatchDelta): void {
    this.indexed += delta.indexed;
    this.removed += delta.removed;
    this.chunks += delta.chunks;
    this.lines += delta.lines;
  }
}
