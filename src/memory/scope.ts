// Scope rules, enforced in the SQL of every read: a caller sees global items plus those of
// its own tenant, team and agent, never another team's or another agent's private items.
import type { SqlFilter, SqlValue } from '../store/index.js';
import type { Scope } from './model.js';

const norm = (v: string | undefined): string => v ?? '';

/** Stored scope columns for a new item. */
export function scopeColumns(scope: Scope): { tenant: string; team: string; agent: string } {
  return { tenant: norm(scope.tenantId), team: norm(scope.teamId), agent: norm(scope.agentId) };
}

/**
 * The visibility filter over `memory_items m`: live, searchable (current versions of facts and
 * procedures), and on each scope axis either global or the caller's own value.
 */
export function visibleTo(scope: Scope): SqlFilter {
  const parts = [
    'm.deleted_at IS NULL',
    "m.lifecycle = 'active'",
    "m.kind IN ('fact','procedure')",
  ];
  const params: SqlValue[] = [];
  for (const [column, value] of [
    ['m.tenant_id', scope.tenantId],
    ['m.team_id', scope.teamId],
    ['m.agent_id', scope.agentId],
  ] as const) {
    if (value === undefined || value === '') {
      parts.push(`${column} = ''`);
    } else {
      parts.push(`${column} IN ('', ?)`);
      params.push(value);
    }
  }
  return { sql: parts.join(' AND '), params };
}
