// DB-mediated approvals: a waiting call writes a pending row; any process (CLI, REST, another
// server) decides it; the waiting call re-reads the row (woken by the approval signal a write
// sends). allow_always leaves a principal+tool grant (grants.ts), only for an authenticated
// principal.
import { InvalidInputError, NotFoundError } from '../shared/errors.js';
import {
  type Queryable,
  ROW_LOCKS,
  rowLockClause,
  type SqlValue,
  type Store,
} from '../store/index.js';
import {
  cancelAbandoned,
  EFFECTIVE_STATUS_SQL,
  effectiveStatus,
  WAITER_GONE,
} from './approval-lease.js';
import { appendAudit } from './audit.js';
import { ApprovalClosedError, GrantRefusedError } from './errors.js';
import { upsertGrant } from './grants.js';
import {
  type Approval,
  type ApprovalDecision,
  type ApprovalStatus,
  APPROVAL_TOPIC,
  type NewApproval,
  type TaskApprovalMark,
} from './model.js';

interface ApprovalRow {
  id: string;
  call_id: string;
  tool: string;
  caller: string;
  principal: string | null;
  args: string;
  reason: string;
  task_id: string | null;
  status: ApprovalStatus;
  decision: ApprovalDecision | null;
  decided_by: string | null;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  waiter_lease_until: number | null;
  closed_reason: string | null;
}

function cancelReasonOf(r: ApprovalRow, status: ApprovalStatus): string | null {
  if (status !== 'cancelled') return null;
  return r.status === 'pending' ? WAITER_GONE : (r.closed_reason ?? 'request cancelled');
}

const toApproval = (r: ApprovalRow, now: number): Approval => ({
  id: r.id,
  callId: r.call_id,
  tool: r.tool,
  caller: r.caller,
  principal: r.principal,
  args: JSON.parse(r.args) as unknown,
  reason: r.reason,
  taskId: r.task_id,
  status: effectiveStatus(r, now),
  decision: r.decision,
  decidedBy: r.decided_by,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  decidedAt: r.decided_at,
  leaseUntil: r.waiter_lease_until,
  cancelReason: cancelReasonOf(r, effectiveStatus(r, now)),
});

export async function insertApproval(q: Queryable, a: NewApproval): Promise<void> {
  await q.run(
    `INSERT INTO tool_approvals
       (id, call_id, tool, caller, principal, args, reason, task_id, status, created_at,
        expires_at, waiter_lease_until)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
    [
      ...[a.id, a.callId, a.tool, a.caller, a.principal],
      ...[JSON.stringify(a.args), a.reason, a.taskId],
      ...[a.createdAt, a.expiresAt, a.leaseUntil],
    ],
  );
}

export async function findApproval(
  q: Queryable,
  id: string,
  now: number,
): Promise<Approval | undefined> {
  const row = await q.get<ApprovalRow>('SELECT * FROM tool_approvals WHERE id = ?', [id]);
  return row === undefined ? undefined : toApproval(row, now);
}

export interface ApprovalQuery {
  /** Effective status; omitted lists every row. */
  status?: ApprovalStatus | undefined;
  /** Only approvals linked to this board task. */
  taskId?: string | undefined;
  limit?: number | undefined;
}

/**
 * Approvals newest first, filtered by effective status: `pending` means still decidable (not
 * past its expiry, its waiter still there).
 */
export async function selectApprovals(
  q: Queryable,
  query: ApprovalQuery,
  now: number,
): Promise<Approval[]> {
  const params: SqlValue[] = [];
  let filter = '1 = 1';
  if (query.status !== undefined) {
    // `status = 'pending'` first, so the pending view still uses the status index.
    const stored = query.status === 'pending' ? "status = 'pending' AND " : '';
    filter = `${stored}${EFFECTIVE_STATUS_SQL} = ?`;
    params.push(now, now, query.status);
  }
  if (query.taskId !== undefined) {
    filter = `task_id = ? AND ${filter}`;
    params.unshift(query.taskId);
  }
  const rows = await q.all<ApprovalRow>(
    `SELECT * FROM tool_approvals WHERE ${filter} ORDER BY created_at DESC, id LIMIT ?`,
    [...params, query.limit ?? 50],
  );
  return rows.map((r) => toApproval(r, now));
}

interface MarkRow {
  task_id: string;
  id: string;
  tool: string;
  created_at: number;
  expires_at: number;
}

/** Every pending, unexpired approval linked to a task, by task (oldest first), in one query. */
export async function selectPendingByTask(
  q: Queryable,
  now: number,
): Promise<Map<string, TaskApprovalMark[]>> {
  const rows = await q.all<MarkRow>(
    `SELECT task_id, id, tool, created_at, expires_at FROM tool_approvals
     WHERE status = 'pending' AND expires_at > ? AND task_id IS NOT NULL
       AND (waiter_lease_until IS NULL OR waiter_lease_until > ?)
     ORDER BY created_at, id`,
    [now, now],
  );
  const byTask = new Map<string, TaskApprovalMark[]>();
  for (const r of rows) {
    const mark = { id: r.id, tool: r.tool, createdAt: r.created_at, expiresAt: r.expires_at };
    byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), mark]);
  }
  return byTask;
}

/**
 * A value that changes whenever a task-linked approval is created or closed (decided,
 * cancelled, expired by the waiting call), even if both happen between two looks.
 */
export async function selectTaskApprovalsMark(q: Queryable): Promise<string> {
  const row = await q.get<{ n: number; closed: number; last: number | null }>(
    `SELECT COUNT(*) AS n, COUNT(decided_at) AS closed, MAX(decided_at) AS last
     FROM tool_approvals WHERE task_id IS NOT NULL`,
  );
  return `${row?.n ?? 0}.${row?.closed ?? 0}.${row?.last ?? 0}`;
}

/**
 * Closes a still-pending row as expired or cancelled (with the reason, for cancelled); false
 * if someone decided or closed it first.
 */
export async function closeApproval(
  q: Queryable,
  id: string,
  status: 'expired' | 'cancelled',
  now: number,
  reason: string | null = null,
): Promise<boolean> {
  const done = await q.run(
    `UPDATE tool_approvals SET status = ?, decided_at = ?, closed_reason = ?
     WHERE id = ? AND status = 'pending'`,
    [status, now, reason, id],
  );
  return done.changes === 1;
}

/**
 * The row, read under its lock (PostgreSQL: `FOR UPDATE`, waiting for a concurrent decider and
 * then reading what it committed), so a status checked on it holds until the caller commits.
 */
async function lockApproval(tx: Queryable, id: string, now: number): Promise<Approval | undefined> {
  const sql = `SELECT * FROM tool_approvals WHERE id = ?${rowLockClause(tx)}`;
  const row = await tx.get<ApprovalRow>(sql, [id]);
  return row === undefined ? undefined : toApproval(row, now);
}

const STATUS_OF: Record<ApprovalDecision, ApprovalStatus> = {
  allow_once: 'allowed',
  allow_always: 'allowed',
  deny: 'denied',
};

export interface DecisionInput {
  id: string;
  decision: ApprovalDecision;
  decidedBy: string;
  now: number;
  /** allow_always only: when the grant stops applying (epoch ms); null or absent: never. */
  grantExpiresAt?: number | null | undefined;
}

/**
 * Records a human decision, atomically: only a pending, unexpired row whose waiter is still
 * there can be decided (the transaction re-reads the lease; a lapsed lease is never renewed).
 * A 'rows' write: the approval's row lock is taken first and its status checked after it, so
 * of racing deciders (any process, any replica) the first decides and the others wait, then
 * read the decided row and are refused; the waiter's lease renewal and expiry are conditional
 * UPDATEs that wait on the same lock. Nothing else it reads decides anything (the grant is an
 * upsert, the audit an insert). Measured: SERIALIZABLE rolled back about 2 deciders' writes
 * per approval with 3 racing (docs/benchmarks.md).
 * A row whose waiter is gone is first cancelled and audited, so the refusal is on record.
 * allow_always also grants the call's principal the tool (until `grantExpiresAt`).
 * @throws NotFoundError for an unknown id; ApprovalClosedError when it is no longer pending;
 * GrantRefusedError for allow_always on an unbound caller's call (the row stays pending);
 * InvalidInputError for a grant expiry that is not in the future.
 */
export async function decideApproval(store: Store, input: DecisionInput): Promise<Approval> {
  const { id, decision, decidedBy, now } = input;
  const grantExpiresAt = input.grantExpiresAt ?? null;
  if (decision === 'allow_always' && grantExpiresAt !== null && grantExpiresAt <= now) {
    throw new InvalidInputError('expiresAt must be in the future', 'expiresAt');
  }
  const seen = await findApproval(store, id, now);
  if (seen?.status === 'cancelled' && seen.decidedAt === null) {
    await store.write((tx) => cancelAbandoned(tx, seen, now), ROW_LOCKS);
  }
  return store.write(async (tx) => {
    const current = await lockApproval(tx, id, now);
    if (current === undefined) throw new NotFoundError(`not found: ${id}`);
    if (current.status !== 'pending') {
      throw new ApprovalClosedError(id, current.status, current.cancelReason);
    }
    const principal = current.principal;
    if (decision === 'allow_always' && principal === null) {
      throw new GrantRefusedError(id, current.caller);
    }
    await tx.run(
      'UPDATE tool_approvals SET status = ?, decision = ?, decided_by = ?, decided_at = ? WHERE id = ?',
      [STATUS_OF[decision], decision, decidedBy, now, id],
    );
    if (decision === 'allow_always' && principal !== null) {
      const grant = { principal, tool: current.tool, approvalId: id, grantedBy: decidedBy, now };
      await upsertGrant(tx, { ...grant, expiresAt: grantExpiresAt });
    }
    await appendAudit(tx, {
      at: now,
      callId: current.callId,
      tool: current.tool,
      caller: current.caller,
      step: 'decision',
      outcome: decision,
      detail: {
        ...{ approvalId: id, decidedBy },
        ...(decision === 'allow_always' ? { principal, grantExpiresAt } : {}),
      },
    });
    await store.signals.notify(tx, APPROVAL_TOPIC, id);
    return { ...current, status: STATUS_OF[decision], decision, decidedBy, decidedAt: now };
  }, ROW_LOCKS);
}
