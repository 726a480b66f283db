// Scope keys: one token per (tenant, team, agent) triple, indexed with every live memory item
// (generated column `scope_key`, migration 7) so FTS5 and vec0 can restrict a search to the
// caller's visible items before ranking. Must produce exactly what the SQL expression does.

/** One scope a caller may see: each axis is a value or '' (global on that axis). */
export interface ScopePartition {
  tenant: string;
  team: string;
  agent: string;
}

const hexUpper = (value: string): string =>
  Buffer.from(value, 'utf8').toString('hex').toUpperCase();

/** The key SQL stores for a live item of this scope: 'zs' || hex(tenant) || 'x' || hex(team) … */
export const scopeKey = (p: ScopePartition): string =>
  `zs${hexUpper(p.tenant)}x${hexUpper(p.team)}x${hexUpper(p.agent)}`;

/** An FTS5 clause matching items whose scope key is one of `partitions`. */
export const scopeMatch = (partitions: readonly ScopePartition[]): string =>
  `scope_key : (${partitions.map((p) => `"${scopeKey(p)}"`).join(' OR ')})`;
