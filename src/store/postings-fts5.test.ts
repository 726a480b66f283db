// The memory postings beside FTS5 (SQLite only): scores close to FTS5's own bm25(), and
// migration 14's back-fill of a database that predates the postings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  dirtyCount,
  expectConsistentStats,
  insert,
  sentence,
  visible,
} from '../../test/postings-fixture.js';
import { createRng } from '../../test/rng.js';
import { sqliteBefore } from '../../test/sqlite-before.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

let dir: string;
const stores: Store[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-postings-'));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function open(name = 'm.db'): Promise<Store> {
  const store = await openSqliteStore(join(dir, name));
  stores.push(store);
  return store;
}

describe('memory postings beside FTS5', () => {
  it('scores within a few percent of FTS5 bm25() when all items share one average length', async () => {
    const store = await open();
    const rand = createRng(5);
    await store.write(async (tx) => {
      for (let i = 0; i < 400; i++)
        await insert(tx, '', sentence(rand, 2), sentence(rand, 10 + (i % 15)));
    });
    let overlap = 0;
    for (let q = 0; q < 30; q++) {
      const query = sentence(rand, 1 + (q % 4));
      const ours = await store.memoryIndex.fullText(query, visible(''), 10);
      const fts5 = await store.memoryIndex.fullText(query, visible(''), 10, { engine: 'fts5' });
      const theirs = new Map(fts5.map((h) => [h.rowid, h.bm25]));
      for (const h of ours) {
        const other = theirs.get(h.rowid);
        if (other !== undefined) expect(Math.abs(h.bm25 - other) / other).toBeLessThan(0.05);
      }
      overlap += ours.filter((h) => theirs.has(h.rowid)).length / Math.max(1, fts5.length);
    }
    expect(overlap / 30).toBeGreaterThan(0.9);
  });
});

describe('migration 14', () => {
  it('marks the items a database already had, and opening the store indexes them in the background', async () => {
    const path = join(dir, 'old.db');
    const db = sqliteBefore(path, 14);
    const add = db.prepare(
      `INSERT INTO memory_items (id, kind, team_id, title, content, content_hash, deleted_at, created_at, updated_at)
       VALUES (?, 'fact', ?, 'note', ?, ?, ?, 1, 1)`,
    );
    add.run('a', '', 'osprey over the lake', 'ha', null);
    add.run('b', 'red', 'osprey diving', 'hb', null);
    add.run('c', 'blue', 'osprey nest', 'hc', null);
    add.run('d', 'red', 'osprey deleted', 'hd', 5);
    db.close();
    const store = await open('old.db');
    // FTS5 ranks while the backlog drains, so the answer is complete either way.
    expect(await store.memoryIndex.fullText('osprey', visible('red'), 10)).toHaveLength(2);
    await expect.poll(() => dirtyCount(store), { timeout: 10_000, interval: 20 }).toBe(0);
    expect(await store.memoryIndex.fullText('osprey', visible('red'), 10)).toHaveLength(2);
    await expectConsistentStats(store);
  });
});
