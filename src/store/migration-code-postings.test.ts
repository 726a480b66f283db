// Code postings that lag the chunks: a write indexes every chunk it changed even behind a
// backlog written past the store, pending() counts the rest per collection, and the background
// drain (started by a search, or by opening a store) catches up; migration 21 marks the chunks
// a database already had.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { addCollection, addFile } from '../../test/code-rows.js';
import { sqliteBefore } from '../../test/sqlite-before.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

let dir: string;
const stores: Store[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-code-backlog-'));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function open(name = 'c.db'): Promise<Store> {
  const store = await openSqliteStore(join(dir, name));
  stores.push(store);
  return store;
}

const chunkIds = (hits: readonly { chunkId: number }[]): number[] => hits.map((h) => h.chunkId);

describe('code postings backlog', () => {
  it('a write indexes every chunk it changed even behind a backlog; pending() counts the rest', async () => {
    const store = await open();
    const c = await store.write((tx) => addCollection(tx, 'a'));
    const file = await store.write((tx) => addFile(tx, c, 'bulk.ts', []));
    // 2,500 chunks written past the store (no flush): the postings do not hold them.
    await store.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
       INSERT INTO code_chunks(file_id, collection_id, ordinal, kind, start_line, end_line, text)
       SELECT ?, ?, i, 'window', 1, 1, 'dunlin ' || i FROM n`,
      [file.file, c],
    );
    expect(await store.codeIndex.pending([c])).toBe(2500);
    expect(await store.codeIndex.pending([c + 1])).toBe(0);
    // This write's own 3,000 chunks are all indexed before it commits, plus 2,000 of the backlog.
    const big = await store.write((tx) =>
      addFile(
        tx,
        c,
        'big.ts',
        Array.from({ length: 3000 }, (_, i) => ({ text: `sanderling ${i}` })),
      ),
    );
    expect(await store.codeIndex.pending([c])).toBe(500);
    const hit = await store.codeIndex.fullText('sanderling 2999', { collectionIds: [c] }, 1);
    expect(chunkIds(hit)).toEqual([big.chunks[2999]]);
    // The search saw a backlog and started the background drain.
    await expect
      .poll(() => store.codeIndex.pending([c]), { timeout: 20_000, interval: 20 })
      .toBe(0);
    const all = await store.codeIndex.fullText('dunlin', { collectionIds: [c] }, 5000);
    expect(all).toHaveLength(2500);
  });
});

describe('migration 21', () => {
  it('marks the chunks a database already had, and opening the store indexes them', async () => {
    const path = join(dir, 'old.db');
    const db = sqliteBefore(path, 21);
    db.pragma('foreign_keys = ON');
    db.exec(`INSERT INTO code_collections(id, name, root, mode, created_at, updated_at)
      VALUES (1, 'old', '/tmp/old', 'filesystem', 1, 1);
      INSERT INTO code_files(id, collection_id, path, size, mtime_ms, hash, lines, indexed_at)
      VALUES (1, 1, 'src/old.py', 1, 1, 'h', 1, 1);
      INSERT INTO code_chunks(file_id, collection_id, ordinal, kind, symbol, start_line, end_line, text)
      VALUES (1, 1, 0, 'function', 'read_config', 1, 2, 'def read_config(): pass'),
             (1, 1, 1, 'function', 'write_config', 3, 4, 'def write_config(): pass');`);
    db.close();
    const store = await open('old.db');
    await expect
      .poll(() => store.codeIndex.pending([1]), { timeout: 10_000, interval: 20 })
      .toBe(0);
    const hits = await store.codeIndex.fullText('config', { collectionIds: [1] }, 5);
    expect(hits).toHaveLength(2);
  });
});
