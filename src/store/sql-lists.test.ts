// The portable IN-list helpers, run against a real SQLite store: chunks cover every value once.
import { afterEach, describe, expect, it } from 'vitest';

import { inChunks, inList } from './sql-lists.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('inList / inChunks', () => {
  it('spells one placeholder per value and refuses an empty list', () => {
    expect(inList(1)).toBe('(?)');
    expect(inList(3)).toBe('(?, ?, ?)');
    expect(() => inList(0)).toThrow(RangeError);
  });

  it('cuts lists into bounded chunks, none for an empty list', () => {
    expect(inChunks([])).toEqual([]);
    expect(inChunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('finds every listed row across chunks', async () => {
    store = await openSqliteStore(':memory:');
    const ids = Array.from({ length: 1203 }, (_, i) => i + 1);
    await store.run('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    for (const part of inChunks(ids)) {
      await store.run(`INSERT INTO t (id) VALUES ${part.map(() => '(?)').join(', ')}`, part);
    }
    const found: number[] = [];
    for (const part of inChunks(ids.filter((id) => id % 2 === 0))) {
      const rows = await store.all<{ id: number }>(
        `SELECT id FROM t WHERE id IN ${inList(part.length)}`,
        part,
      );
      found.push(...rows.map((r) => r.id));
    }
    expect(found.sort((a, b) => a - b)).toEqual(ids.filter((id) => id % 2 === 0));
  });
});
