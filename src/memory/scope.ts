// Scope rules, enforced in the SQL of every read: a caller sees global items plus those of
// its own tenant, team and agent, never another team's or another agent's private items.
import type { ScopePartition, SqlFilter, SqlValue } from '../store/index.js';
import type { Scope } from './model.js';

const norm = (v: string | undefined): string => v ?? '';

/** Stored scope columns for a new item. */
export function scopeColumns(scope: Scope): { tenant: string; team: string; agent: string } {
  return { tenant: norm(scope.tenantId), team: norm(scope.teamId), agent: norm(scope.agentId) };
}

/** Every (tenant, team, agent) combination of the allowed values on each axis (1 to 8). */
function partitionsOf(axes: readonly string[][]): ScopePartition[] {
  const [tenants = [''], teams = [''], agents = ['']] = axes;
  return tenants.flatMap((tenant) =>
    teams.flatMap((team) => agents.map((agent) => ({ tenant, team, agent }))),
  );
}

/**
 * The visibility filter over `memory_items m`: live, searchable (current versions of facts and
 * procedures), and on each scope axis either global or the caller's own value. With
 * `superseded`, older procedure versions pass too (memory_get reads them).
 */
export function visibleTo(scope: Scope, options: { superseded?: boolean } = {}): SqlFilter {
  const parts = ['m.deleted_at IS NULL', "m.kind IN ('fact','procedure')"];
  if (options.superseded !== true) parts.push("m.lifecycle = 'active'");
  const params: SqlValue[] = [];
  const axes: string[][] = [];
  for (const [column, value] of [
    ['m.tenant_id', scope.tenantId],
    ['m.team_id', scope.teamId],
    ['m.agent_id', scope.agentId],
  ] as const) {
    if (value === undefined || value === '') {
      parts.push(`${column} = ''`);
      axes.push(['']);
    } else {
      parts.push(`${column} IN ('', ?)`);
      params.push(value);
      axes.push(['', value]);
    }
  }
  const sql = parts.join(' AND ');
  // Scope keys index live items only, so they cannot stand in for a filter that admits
  // superseded versions.
  return options.superseded === true
    ? { sql, params }
    : { sql, params, partitions: partitionsOf(axes) };
}
