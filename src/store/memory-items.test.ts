// The memory items' named operations by numeric key, over a real in-memory store: lookups,
// newest-first order with same-millisecond ties, and the embedding backlog.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  memoryEmbedBacklog,
  memoryEmbedPending,
  memoryItemsByRowids,
  newestMemoryRowid,
  recentMemoryItems,
} from './memory-items.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

let store: Store;
beforeEach(async () => {
  store = await openSqliteStore(':memory:');
});
afterEach(() => store.close());

async function add(id: string, createdAt: number, deleted = false): Promise<number> {
  await store.run(
    `INSERT INTO memory_items (id, kind, title, content, content_hash, created_at, updated_at, deleted_at)
     VALUES (?, 'fact', ?, 'body', ?, ?, ?, ?)`,
    [id, `title ${id}`, `h-${id}`, createdAt, createdAt, deleted ? createdAt : null],
  );
  const row = await store.get<{ rowid: number }>('SELECT rowid FROM memory_items WHERE id = ?', [
    id,
  ]);
  return row?.rowid ?? -1;
}

const ALL = { sql: '1 = 1', params: [] };

describe('memory items by numeric key', () => {
  it('reports 0 as the newest key of an empty table', async () => {
    expect(await newestMemoryRowid(store)).toBe(0);
    expect(await memoryItemsByRowids(store, [])).toEqual([]);
  });

  it('finds rows by key (duplicates once, missing keys absent) and lists newest first', async () => {
    const b = await add('b', 5);
    const a = await add('a', 5);
    const c = await add('c', 9);
    expect(await newestMemoryRowid(store)).toBe(Math.max(a, b, c));
    const rows = await memoryItemsByRowids<{ id: string }>(store, [a, a, c, 9999]);
    expect(rows.map((r) => r.id).sort()).toEqual(['a', 'c']);
    const recent = await recentMemoryItems<{ id: string }>(store, ALL, 10);
    expect(recent.map((r) => r.id)).toEqual(['c', 'a', 'b']);
    expect((await recentMemoryItems<{ id: string }>(store, ALL, 1)).map((r) => r.id)).toEqual([
      'c',
    ]);
  });

  it('pages the live items without a vector from the model, by key', async () => {
    const a = await add('a', 1);
    await add('gone', 2, true);
    const b = await add('b', 3);
    expect(await memoryEmbedPending(store, 'm1')).toBe(2);
    const first = await memoryEmbedBacklog(store, 'm1', 0, 1);
    expect(first).toEqual([{ rowid: a, title: 'title a', content: 'body' }]);
    const rest = await memoryEmbedBacklog(store, 'm1', a, 10);
    expect(rest.map((r) => r.rowid)).toEqual([b]);
  });
});
