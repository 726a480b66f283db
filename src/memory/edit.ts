// Operator edits on memory items: replace an item's tags (scrubbed like a save) and soft-delete
// it. Both find the item exactly as `get` does, so nothing outside the caller's scope is touched.
import { NotFoundError, stripInvisible } from '../shared/index.js';
import type { Queryable, Store } from '../store/index.js';
import type { MemoryItem, MemoryScrubber, Scope } from './model.js';
import { type ItemRow, toItem } from './rows.js';
import { visibleTo } from './scope.js';

export interface EditOptions {
  scrubber: MemoryScrubber;
  clock: () => number;
}

async function visibleRow(tx: Queryable, id: string, scope: Scope): Promise<ItemRow> {
  const filter = visibleTo(scope, { superseded: true });
  const row = await tx.get<ItemRow>(
    `SELECT * FROM memory_items m WHERE m.id = ? AND ${filter.sql}`,
    [id, ...filter.params],
  );
  if (row === undefined) throw new NotFoundError(`not found: ${id}`);
  return row;
}

/** Builds `setTags` and `remove` over a store. */
export function createEdits(store: Store, options: EditOptions) {
  return {
    /**
     * Replaces the tags of one item (deduplicated, each stripped of invisible characters and
     * scrubbed of secrets; a tag left empty is dropped).
     * @throws NotFoundError when missing, deleted or outside the caller's scope.
     */
    async setTags(id: string, tags: readonly string[], scope: Scope): Promise<MemoryItem> {
      const clean = await Promise.all(
        tags.map(async (t) => (await options.scrubber.scrub(stripInvisible(t))).text),
      );
      return store.write(async (tx) => {
        await visibleRow(tx, id, scope);
        await tx.run('UPDATE memory_items SET tags = ?, updated_at = ? WHERE id = ?', [
          JSON.stringify([...new Set(clean.filter((t) => t !== ''))]),
          options.clock(),
          id,
        ]);
        return toItem(await visibleRow(tx, id, scope));
      });
    },

    /**
     * Soft-deletes one item (sets `deleted_at`; search, browse and get stop seeing it). A
     * procedure goes with all its versions, so no older version resurfaces as current.
     * @throws NotFoundError when missing, already deleted or outside the caller's scope.
     */
    async remove(id: string, scope: Scope): Promise<{ id: string; removed: number }> {
      return store.write(async (tx) => {
        const row = await visibleRow(tx, id, scope);
        const now = options.clock();
        const same =
          'kind = ? AND name = ? AND tenant_id = ? AND team_id = ? AND agent_id = ? AND deleted_at IS NULL';
        const where =
          row.kind === 'procedure'
            ? { sql: same, params: [row.kind, row.name, row.tenant_id, row.team_id, row.agent_id] }
            : { sql: 'id = ?', params: [id] };
        const result = await tx.run(
          `UPDATE memory_items SET deleted_at = ?, updated_at = ? WHERE ${where.sql}`,
          [now, now, ...where.params],
        );
        return { id, removed: result.changes };
      });
    },
  };
}
