// allow_always grants: bound to an authenticated principal (`agent:<id>`), never to a client's
// self-reported name; optionally expiring; listed and revoked by humans (CLI, REST, dashboard).
// Every check re-reads the row, so a revocation applies to the next call in any process.
import { randomUUID } from 'node:crypto';

import { ConflictError, NotFoundError } from '../shared/errors.js';
import type { Queryable, SqlValue, Store } from '../store/index.js';
import { appendAudit } from './audit.js';
import type { Grant, GrantStatus } from './model.js';

interface GrantRow {
  id: string;
  principal: string;
  tool: string;
  approval_id: string | null;
  granted_by: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  revoked_by: string | null;
}

const statusOf = (r: GrantRow, now: number): GrantStatus => {
  if (r.revoked_at !== null) return 'revoked';
  return r.expires_at !== null && now >= r.expires_at ? 'expired' : 'active';
};

const toGrant = (r: GrantRow, now: number): Grant => ({
  id: r.id,
  principal: r.principal,
  tool: r.tool,
  approvalId: r.approval_id,
  grantedBy: r.granted_by,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  status: statusOf(r, now),
  revokedAt: r.revoked_at,
  revokedBy: r.revoked_by,
});

/** The principal of a bound agent (a signed attach URL's `scopeAgentId`, stdio `--agent`). */
export const agentPrincipal = (agentId: string): string => `agent:${agentId}`;

/** The active grant that lets `principal` call `tool` without a human, if any. */
export async function findActiveGrant(
  q: Queryable,
  principal: string,
  tool: string,
  now: number,
): Promise<Grant | undefined> {
  const row = await q.get<GrantRow>(
    `SELECT * FROM tool_grants WHERE principal = ? AND tool = ? AND revoked_at IS NULL
       AND (expires_at IS NULL OR expires_at > ?)`,
    [principal, tool, now],
  );
  return row === undefined ? undefined : toGrant(row, now);
}

export interface NewGrant {
  principal: string;
  tool: string;
  approvalId: string;
  grantedBy: string;
  now: number;
  expiresAt: number | null;
}

/**
 * Grants `tool` to `principal` inside the caller's transaction. A live (unrevoked) grant for
 * the same pair, active or expired, is renewed in place: it keeps its id and takes the new
 * approval, granter and expiry.
 */
export async function upsertGrant(tx: Queryable, g: NewGrant): Promise<void> {
  await tx.run(
    `INSERT INTO tool_grants (id, principal, tool, approval_id, granted_by, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (principal, tool) WHERE revoked_at IS NULL DO UPDATE SET
       approval_id = excluded.approval_id, granted_by = excluded.granted_by,
       created_at = excluded.created_at, expires_at = excluded.expires_at`,
    [randomUUID(), g.principal, g.tool, g.approvalId, g.grantedBy, g.now, g.expiresAt],
  );
}

export interface GrantQuery {
  /** `active` (the default), `expired`, `revoked`, or every grant. */
  status?: GrantStatus | 'all' | undefined;
  principal?: string | undefined;
  tool?: string | undefined;
  limit?: number | undefined;
}

const STATUS_FILTER: Record<GrantStatus, string> = {
  active: 'revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
  expired: 'revoked_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ?',
  revoked: 'revoked_at IS NOT NULL',
};

/** Grants newest first, filtered by status (effective at `now`), principal and tool. */
export async function selectGrants(q: Queryable, query: GrantQuery, now: number): Promise<Grant[]> {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const status = query.status ?? 'active';
  if (status !== 'all') {
    where.push(STATUS_FILTER[status]);
    if (status !== 'revoked') params.push(now);
  }
  if (query.principal !== undefined) {
    where.push('principal = ?');
    params.push(query.principal);
  }
  if (query.tool !== undefined) {
    where.push('tool = ?');
    params.push(query.tool);
  }
  const filter = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
  const rows = await q.all<GrantRow>(
    `SELECT * FROM tool_grants ${filter} ORDER BY created_at DESC, id LIMIT ?`,
    [...params, query.limit ?? 100],
  );
  return rows.map((r) => toGrant(r, now));
}

/**
 * Revokes a grant (kept, marked revoked, audited): the principal's next call to the tool waits
 * for a human again, in every process, since each call re-reads the grant.
 * @throws NotFoundError for an unknown id; ConflictError when it is already revoked.
 */
export function revokeGrant(
  store: Store,
  input: { id: string; revokedBy: string; now: number },
): Promise<Grant> {
  const { id, revokedBy, now } = input;
  return store.write(async (tx) => {
    const row = await tx.get<GrantRow>('SELECT * FROM tool_grants WHERE id = ?', [id]);
    if (row === undefined) throw new NotFoundError(`not found: grant ${id}`);
    if (row.revoked_at !== null) throw new ConflictError(`grant ${id} is already revoked`);
    await tx.run('UPDATE tool_grants SET revoked_at = ?, revoked_by = ? WHERE id = ?', [
      now,
      revokedBy,
      id,
    ]);
    await appendAudit(tx, {
      ...{ at: now, tool: row.tool, caller: row.principal },
      step: 'grant',
      outcome: 'revoked',
      detail: { grantId: id, revokedBy },
    });
    return toGrant({ ...row, revoked_at: now, revoked_by: revokedBy }, now);
  });
}
