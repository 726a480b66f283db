// The audit log: one append-only row per pipeline step, paged newest first by id. Other
// domains (team_delegate) append here too; nothing updates or deletes a row.
import type { Queryable, SqlValue } from '../store/index.js';
import type { AuditEntry, AuditPage } from './model.js';

export interface AuditEntryInput {
  tool: string;
  caller: string;
  step: string;
  outcome: string;
  detail?: unknown;
  callId?: string;
}

export interface AuditQuery {
  tool?: string | undefined;
  caller?: string | undefined;
  outcome?: string | undefined;
  step?: string | undefined;
  callId?: string | undefined;
  /** Inclusive lower bound on `at`, ms since epoch. */
  since?: number | undefined;
  /** Exclusive upper bound on `at`, ms since epoch. */
  until?: number | undefined;
  limit?: number | undefined;
  /** The `nextCursor` of the previous page. */
  cursor?: number | undefined;
}

interface AuditRow {
  id: number;
  at: number;
  call_id: string | null;
  tool: string;
  caller: string;
  step: string;
  outcome: string;
  reason: string | null;
  detail: string;
}

function reasonOf(detail: unknown): string | null {
  if (typeof detail !== 'object' || detail === null) return null;
  const reason = (detail as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : null;
}

/**
 * Appends one audit row. Call it inside the caller's write transaction (or on the store) so
 * the row commits with the change it records. `detail` is stored as JSON; a `detail.reason`
 * string is also kept in its own column (denial reasons, counted by the circuit breaker).
 */
export async function appendAudit(
  q: Queryable,
  entry: AuditEntryInput & { at?: number },
): Promise<void> {
  await q.run(
    `INSERT INTO audit_log (at, call_id, tool, caller, step, outcome, reason, detail)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      entry.at ?? Date.now(),
      entry.callId ?? null,
      entry.tool,
      entry.caller,
      entry.step,
      entry.outcome,
      reasonOf(entry.detail),
      JSON.stringify(entry.detail ?? null),
    ],
  );
}

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  at: r.at,
  callId: r.call_id,
  tool: r.tool,
  caller: r.caller,
  step: r.step,
  outcome: r.outcome,
  reason: r.reason,
  detail: JSON.parse(r.detail) as unknown,
});

function where(query: AuditQuery): { sql: string; params: SqlValue[] } {
  const terms: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, value: SqlValue | undefined): void => {
    if (value === undefined) return;
    terms.push(sql);
    params.push(value);
  };
  add('tool = ?', query.tool);
  add('caller = ?', query.caller);
  add('outcome = ?', query.outcome);
  add('step = ?', query.step);
  add('call_id = ?', query.callId);
  add('at >= ?', query.since);
  add('at < ?', query.until);
  add('id < ?', query.cursor);
  return { sql: terms.length === 0 ? '1 = 1' : terms.join(' AND '), params };
}

/** One page of audit rows matching every given filter, newest first. */
export async function listAudit(q: Queryable, query: AuditQuery = {}): Promise<AuditPage> {
  const limit = query.limit ?? 50;
  const { sql, params } = where(query);
  const rows = await q.all<AuditRow>(
    `SELECT * FROM audit_log WHERE ${sql} ORDER BY id DESC LIMIT ?`,
    [...params, limit + 1],
  );
  const page = rows.slice(0, limit).map(toEntry);
  const last = page.at(-1);
  return { entries: page, nextCursor: rows.length > limit && last !== undefined ? last.id : null };
}
