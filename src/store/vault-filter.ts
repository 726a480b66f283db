// The retrieval filter of the vault as SQL: which collections of one vault a search ranks in
// (the internal collection only when named or asked for) and the per-document conditions
// rechecked on every hit (active, not archived, not snoozed past now).
import type { Queryable, SqlValue } from './types.js';
import { INTERNAL_COLLECTION, type VaultFilter } from './vault-types.js';

/** The ids of the collections the filter ranks in, ascending. */
export async function filterCollections(db: Queryable, filter: VaultFilter): Promise<number[]> {
  const rows = await db.all<{ id: number; name: string }>(
    'SELECT id, name FROM vault_collections WHERE vault = ? ORDER BY id',
    [filter.vault],
  );
  const named = filter.collections === undefined ? undefined : new Set(filter.collections);
  return rows
    .filter((r) =>
      named !== undefined
        ? named.has(r.name)
        : r.name !== INTERNAL_COLLECTION || filter.includeInternal === true,
    )
    .map((r) => r.id);
}

/** The WHERE conditions over `vault_documents d` every hit must pass. */
export function documentConditions(filter: VaultFilter): { sql: string; params: SqlValue[] } {
  const parts = ['d.vault = ?', 'd.active = 1'];
  const params: SqlValue[] = [filter.vault];
  if (filter.onlyArchived === true) parts.push('d.archived_at IS NOT NULL');
  else if (filter.includeArchived !== true) parts.push('d.archived_at IS NULL');
  if (filter.includeSnoozed !== true) {
    parts.push('(d.snoozed_until IS NULL OR d.snoozed_until <= ?)');
    params.push(filter.now);
  }
  return { sql: parts.join(' AND '), params };
}
