// Ending jobs from outside their runner: a cancel (any process), and the sweep that marks a job
// failed when its runner is gone (heartbeat too old, its process no longer exists, or on
// PostgreSQL its job lock is free: liveness.ts). Either way the collection is restored in the
// same transaction as the job's end.
import type { Queryable, Store } from '../../store/index.js';
import { restoreCollection } from './collection-rows.js';
import { JOB_SELECT, type JobOutcome, type JobRow, LIVE_STATES } from './job-rows.js';
import { goneReason, type Vantage } from './liveness.js';

async function endWith(
  tx: Queryable,
  row: Pick<JobRow, 'id' | 'collection_id'>,
  state: 'failed' | 'cancelled',
  message: string,
  now: number,
  heartbeat?: number | null,
): Promise<boolean> {
  const outcome: JobOutcome = { message, nothingToIndex: null };
  const guard = heartbeat === undefined ? '' : ' AND COALESCE(heartbeat_at, -1) = ?';
  const params = [state, state, JSON.stringify(outcome), now, row.id];
  const r = await tx.run(
    `UPDATE code_jobs SET state = ?, phase = ?, outcome = ?, finished_at = ?
     WHERE id = ? AND state IN ${LIVE_STATES}${guard}`,
    heartbeat === undefined ? params : [...params, heartbeat ?? -1],
  );
  if (r.changes === 0) return false;
  await restoreCollection(tx, row.collection_id, message, now);
  return true;
}

/**
 * Marks every live job whose runner is gone as failed (skipping `ownIds`, jobs this process
 * runs). A job that stamped a heartbeat after it was read is left alone. Returns the ids ended.
 */
export async function sweepStale(
  store: Store,
  ownIds: ReadonlySet<string>,
  vantage: Omit<Vantage, 'locks'>,
): Promise<string[]> {
  const { now } = vantage;
  const live = await store.all<JobRow>(`${JOB_SELECT} WHERE j.state IN ${LIVE_STATES}`);
  const ended: string[] = [];
  for (const row of live) {
    if (ownIds.has(row.id)) continue;
    const reason = await goneReason(row, { ...vantage, locks: store.locks });
    if (reason === null) continue;
    const done = await store.write((tx) =>
      endWith(tx, row, 'failed', reason, now, row.heartbeat_at),
    );
    if (done) ended.push(row.id);
  }
  return ended;
}

/** Marks a job failed because its runner (this process's worker) died. */
export function failJob(
  store: Store,
  row: Pick<JobRow, 'id' | 'collection_id'>,
  message: string,
  now: number,
): Promise<boolean> {
  return store.write((tx) => endWith(tx, row, 'failed', message, now));
}

/** Cancels a live job (inside the caller's transaction); false when it was not live. */
export function cancelJobRow(
  tx: Queryable,
  row: Pick<JobRow, 'id' | 'collection_id'>,
  message: string,
  now: number,
): Promise<boolean> {
  return endWith(tx, row, 'cancelled', message, now);
}
