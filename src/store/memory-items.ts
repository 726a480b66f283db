// Memory items by their numeric key (`memory_items.rowid`, the key postings and vectors use):
// the lookups, orderings and the embedding backlog the memory domain must not spell itself.
// Portable SQL over declared columns; a backend only needs memory_items.rowid to exist.
import type { SqlFilter } from './memory-index.js';
import { inChunks, inList } from './sql-lists.js';
import type { Queryable } from './types.js';

/** The rows (`SELECT *`) of these numeric keys, any order; keys no longer stored are absent. */
export async function memoryItemsByRowids<T>(
  q: Queryable,
  rowids: readonly number[],
): Promise<T[]> {
  const out: T[] = [];
  for (const part of inChunks([...new Set(rowids)])) {
    out.push(
      ...(await q.all<T>(`SELECT * FROM memory_items WHERE rowid IN ${inList(part.length)}`, part)),
    );
  }
  return out;
}

/** Items of `memory_items m` passing `filter`, newest first (later inserts first on a tie). */
export function recentMemoryItems<T>(q: Queryable, filter: SqlFilter, limit: number): Promise<T[]> {
  return q.all<T>(
    `SELECT * FROM memory_items m WHERE ${filter.sql} ORDER BY m.created_at DESC, m.rowid DESC LIMIT ?`,
    [...filter.params, limit],
  );
}

/** The highest numeric key there is (0 for none): where an embedding backlog pass stops. */
export async function newestMemoryRowid(q: Queryable): Promise<number> {
  const row = await q.get<{ top: number | null }>('SELECT MAX(rowid) AS top FROM memory_items');
  return row?.top ?? 0;
}

/** A live item without a vector from the current model, by numeric key. */
export interface MemoryBacklogRow {
  rowid: number;
  title: string;
  content: string;
}

const BACKLOG = `FROM memory_items m LEFT JOIN memory_vectors mv ON mv.item_rowid = m.rowid
  WHERE m.deleted_at IS NULL AND (mv.item_rowid IS NULL OR mv.model <> ?)`;

/** The next `limit` live items after key `after` without a vector from `model`, by key. */
export function memoryEmbedBacklog(
  q: Queryable,
  model: string,
  after: number,
  limit: number,
): Promise<MemoryBacklogRow[]> {
  return q.all<MemoryBacklogRow>(
    `SELECT m.rowid AS rowid, m.title AS title, m.content AS content ${BACKLOG}
       AND m.rowid > ? ORDER BY m.rowid LIMIT ?`,
    [model, after, limit],
  );
}

/** How many live items have no vector from `model`. */
export async function memoryEmbedPending(q: Queryable, model: string): Promise<number> {
  const row = await q.get<{ n: number }>(`SELECT COUNT(*) AS n ${BACKLOG}`, [model]);
  return row?.n ?? 0;
}
