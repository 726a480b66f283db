// Liveness of waiting calls across processes. A waiting call holds a lease on its pending
// approval row and renews it while it waits; a pending row whose lease lapsed has nobody
// waiting any more (the process was killed, crashed or hung), so it reads as `cancelled` and
// can never be decided. Deciders and the serving process's sweep write that down (status,
// reason, audit row). A lapsed lease is never renewed, so a row's status only moves forward.
import type { Queryable, Store } from '../store/index.js';
import { appendAudit } from './audit.js';
import { type Approval, type ApprovalStatus, APPROVAL_TOPIC } from './model.js';

/** The cancel reason of a row whose waiter stopped renewing its lease. */
export const WAITER_GONE =
  'waiter process gone: the process that made the call stopped renewing its lease';

/**
 * A row's effective status in SQL (binds `now` twice): pending past its lease reads as
 * `cancelled` (when the lease lapsed before the expiry), pending past its expiry as `expired`.
 */
export const EFFECTIVE_STATUS_SQL = `(CASE
  WHEN status <> 'pending' THEN status
  WHEN waiter_lease_until IS NOT NULL AND waiter_lease_until <= ?
    AND waiter_lease_until < expires_at THEN 'cancelled'
  WHEN expires_at <= ? THEN 'expired'
  ELSE 'pending' END)`;

/** The lease and expiry columns a status is computed from. */
export interface LeaseColumns {
  status: ApprovalStatus;
  expires_at: number;
  waiter_lease_until: number | null;
}

/** The same rule as EFFECTIVE_STATUS_SQL, for one row read. */
export function effectiveStatus(r: LeaseColumns, now: number): ApprovalStatus {
  if (r.status !== 'pending') return r.status;
  const lease = r.waiter_lease_until;
  if (lease !== null && lease <= now && lease < r.expires_at) return 'cancelled';
  return now >= r.expires_at ? 'expired' : 'pending';
}

/**
 * Extends the lease of a still-pending row whose lease has not lapsed; false otherwise (the
 * row was decided or closed, or the waiter was too late and is already taken for gone).
 */
export async function renewLease(
  q: Queryable,
  id: string,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const done = await q.run(
    `UPDATE tool_approvals SET waiter_lease_until = ?
     WHERE id = ? AND status = 'pending' AND (waiter_lease_until IS NULL OR waiter_lease_until > ?)`,
    [now + leaseMs, id, now],
  );
  return done.changes === 1;
}

/**
 * Records, inside `tx`, that a row reading as cancelled because its waiter is gone is
 * cancelled: status, reason and an `approval cancelled` audit row. No-op if already closed.
 */
export async function cancelAbandoned(
  tx: Queryable,
  a: Pick<Approval, 'id' | 'callId' | 'tool' | 'caller'>,
  now: number,
): Promise<void> {
  const done = await tx.run(
    `UPDATE tool_approvals SET status = 'cancelled', decided_at = ?, closed_reason = ?
     WHERE id = ? AND status = 'pending'`,
    [now, WAITER_GONE, a.id],
  );
  if (done.changes !== 1) return;
  await appendAudit(tx, {
    ...{ at: now, callId: a.callId, tool: a.tool, caller: a.caller },
    step: 'approval',
    outcome: 'cancelled',
    detail: { approvalId: a.id, reason: WAITER_GONE },
  });
}

interface LapsedRow {
  id: string;
  call_id: string;
  tool: string;
  caller: string;
}

/**
 * Cancels (and audits) every pending row whose waiter is gone; returns how many (0 when another
 * process on the store is sweeping right now: the sweep runs once across replicas).
 */
export async function sweepAbandoned(store: Store, now: number): Promise<number> {
  const run = await store.locks.tryRun('broker:approval-sweep', () => cancelLapsed(store, now));
  return run.ran ? run.value : 0;
}

/**
 * Stays SERIALIZABLE: it reads a range (every lapsed pending row) and then writes each one, and
 * nothing locks that range; it runs once across replicas, off the hot path (a timer), so its
 * rare retries cost nothing a caller waits for. Each cancel also re-checks `status = 'pending'`.
 */
function cancelLapsed(store: Store, now: number): Promise<number> {
  return store.write(async (tx) => {
    const rows = await tx.all<LapsedRow>(
      `SELECT id, call_id, tool, caller FROM tool_approvals
       WHERE status = 'pending' AND waiter_lease_until IS NOT NULL AND waiter_lease_until <= ?
         AND waiter_lease_until < expires_at
       ORDER BY created_at LIMIT 200`,
      [now],
    );
    for (const r of rows) {
      await cancelAbandoned(
        tx,
        { id: r.id, callId: r.call_id, tool: r.tool, caller: r.caller },
        now,
      );
      await store.signals.notify(tx, APPROVAL_TOPIC, r.id);
    }
    return rows.length;
  });
}
