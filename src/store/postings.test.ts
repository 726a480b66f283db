// The memory postings, on both backends (the postgres test project runs this file on
// PostgreSQL): kept in step in the write transaction, followed by other stores' caches (other
// processes, replicas), exact against an exhaustive BM25 over the stored weights, safe when a
// write bypassed the store, and drained in the background.
import { afterEach, describe, expect, it } from 'vitest';

import {
  bypassingBulk,
  dirtyCount,
  exhaustive,
  expectConsistentStats,
  ids,
  insert,
  sentence,
  TEAMS,
  visible,
} from '../../test/postings-fixture.js';
import { createRng } from '../../test/rng.js';
import { type TempStore, tempStore } from '../../test/store-backends.js';
import type { Store } from './types.js';

let temp: TempStore | undefined;
afterEach(async () => {
  await temp?.close();
  temp = undefined;
});

/** The first store on a fresh database (SQLite file or PostgreSQL database). */
async function open(): Promise<Store> {
  temp = await tempStore();
  return temp.store;
}

/** Another store on the same database. */
function another(): Promise<Store> {
  if (temp === undefined) throw new Error('open() first');
  return temp.reopen();
}

describe('memory postings', () => {
  it('rank exactly like an exhaustive BM25 through inserts, edits, deletes and scope moves', async () => {
    const store = await open();
    const rand = createRng(11);
    const rowids: number[] = [];
    await store.write(async (tx) => {
      for (let i = 0; i < 300; i++)
        rowids.push(
          await insert(tx, TEAMS[i % 3] ?? '', sentence(rand, 3), sentence(rand, 8 + (i % 20))),
        );
    });
    const check = async () => {
      for (let q = 0; q < 25; q++) {
        const query = sentence(rand, 1 + (q % 5));
        const team = TEAMS[q % 3] ?? '';
        const got = await store.memoryIndex.fullText(query, visible(team), 10);
        const want = await exhaustive(store, query, team, 10);
        expect(ids(got)).toEqual(ids(want));
        got.forEach((h, i) => expect(h.bm25).toBeCloseTo(want[i]?.bm25 ?? -1, 9));
      }
    };
    await check();
    await store.write(async (tx) => {
      for (const id of rowids.slice(0, 30))
        await tx.run('UPDATE memory_items SET content = ? WHERE rowid = ?', [
          sentence(rand, 12),
          id,
        ]);
      for (const id of rowids.slice(30, 60))
        await tx.run('UPDATE memory_items SET deleted_at = 1 WHERE rowid = ?', [id]);
      for (const id of rowids.slice(60, 90))
        await tx.run("UPDATE memory_items SET team_id = 'blue' WHERE rowid = ?", [id]);
      for (const id of rowids.slice(90, 100))
        await tx.run('DELETE FROM memory_items WHERE rowid = ?', [id]);
      for (const id of rowids.slice(100, 110))
        await tx.run("UPDATE memory_items SET lifecycle = 'superseded' WHERE rowid = ?", [id]);
    });
    await check();
    await expectConsistentStats(store);
  });

  it("another connection's writes reach this connection's cached lists", async () => {
    const reader = await open();
    const writer = await another();
    const made: Record<string, number> = {};
    await writer.write(async (tx) => {
      made.moved = await insert(tx, 'red', 'kestrel', 'kestrel nests near the quarry');
      made.gone = await insert(tx, 'red', 'kestrel', 'kestrel roost by the river');
      made.blue = await insert(tx, 'blue', 'kestrel', 'kestrel seen by the blue team');
      made.global = await insert(tx, '', 'kestrel', 'a global kestrel fact');
    });
    // Both searches load every scope into the reader's cache.
    const red = await reader.memoryIndex.fullText('kestrel', visible('red'), 10);
    expect(ids(red).sort()).toEqual([made.moved, made.gone, made.global].sort());
    expect(await reader.memoryIndex.fullText('kestrel', visible('blue'), 10)).toHaveLength(2);
    await writer.write(async (tx) => {
      made.added = await insert(tx, 'red', 'kestrel', 'a new red kestrel fact');
      await tx.run("UPDATE memory_items SET team_id = 'blue' WHERE rowid = ?", [made.moved ?? 0]);
      await tx.run('UPDATE memory_items SET deleted_at = 1 WHERE rowid = ?', [made.gone ?? 0]);
    });
    const after = await reader.memoryIndex.fullText('kestrel', visible('red'), 10);
    expect(ids(after).sort()).toEqual([made.added, made.global].sort());
    const blue = await reader.memoryIndex.fullText('kestrel', visible('blue'), 10);
    expect(ids(blue).sort()).toEqual([made.moved, made.blue, made.global].sort());
  });

  it('concurrent writers from two stores each index their own items, the stats row stays exact', async () => {
    const a = await open();
    const b = await another();
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? a : b).write((tx) =>
          insert(tx, TEAMS[i % 3] ?? '', 'avocet', `avocet sighting ${i} by the estuary`),
        ),
      ),
    );
    // Each write is one serializable transaction: retried ones index their item exactly once.
    expect(new Set(made).size).toBe(12);
    expect(await dirtyCount(a)).toBe(0);
    const found = await b.memoryIndex.fullText('avocet', visible('red'), 50);
    const red = made.filter((_, i) => (TEAMS[i % 3] ?? '') !== 'blue');
    expect(ids(found).sort((x, y) => x - y)).toEqual([...red].sort((x, y) => x - y));
    await expectConsistentStats(a);
  });

  it('folds document-frequency deltas and a reader that missed the fold reloads them', async () => {
    const reader = await open();
    const writer = await another();
    const rand = createRng(3);
    await writer.write(async (tx) => {
      for (let i = 0; i < 50; i++) await insert(tx, 'red', sentence(rand, 2), sentence(rand, 9));
    });
    const query = 'kafka redis timeout';
    await reader.memoryIndex.fullText(query, visible('red'), 10);
    for (let i = 0; i < 300; i++) {
      await writer.write((tx) => insert(tx, i % 2 === 0 ? 'red' : '', 'kafka', sentence(rand, 9)));
    }
    const folded = await writer.get<{ n: number; dfSeq: number }>(
      'SELECT (SELECT COUNT(*) FROM memory_postings_df) AS n, df_seq AS "dfSeq" FROM memory_postings_stats',
    );
    expect(folded?.n).toBeLessThan(256);
    expect(folded?.dfSeq).toBeGreaterThan(1);
    const got = await reader.memoryIndex.fullText(query, visible('red'), 10);
    const want = await exhaustive(reader, query, 'red', 10);
    expect(ids(got)).toEqual(ids(want));
    got.forEach((h, i) => expect(h.bm25).toBeCloseTo(want[i]?.bm25 ?? -1, 9));
    await expectConsistentStats(writer);
  });

  it('a write that bypassed the store is still found (SQLite: FTS5 ranks it; PostgreSQL indexes it first)', async () => {
    const store = await open();
    await store.write((tx) => insert(tx, '', 'heron', 'heron by the weir'));
    await store.run(
      `INSERT INTO memory_items (id, kind, title, content, tags, content_hash, created_at, updated_at)
       VALUES ('raw', 'fact', 'heron', 'a heron written outside a transaction', '[]', 'raw', 1, 1)`,
    );
    const dirty = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_postings_dirty');
    expect(dirty?.n).toBe(1);
    expect(await store.memoryIndex.fullText('heron', visible(''), 10)).toHaveLength(2);
    await store.write((tx) => insert(tx, '', 'egret', 'an egret'));
    expect(
      (await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_postings_dirty'))?.n,
    ).toBe(0);
    expect(await store.memoryIndex.fullText('heron', visible(''), 10)).toHaveLength(2);
    await expectConsistentStats(store);
  });

  it('treats FTS syntax in a query as words and returns a highlighted snippet', async () => {
    const store = await open();
    await store.write((tx) =>
      insert(tx, '', 'Quota', 'The NEAR quota for "billing" (per team) resets at midnight*'),
    );
    for (const q of ['"billing', 'NEAR(quota', 'quota*', '-billing', 'team:quota', ')(']) {
      const hits = await store.memoryIndex.fullText(q, visible(''), 5);
      expect(hits.length, q).toBeLessThanOrEqual(1);
    }
    const [hit] = await store.memoryIndex.fullText('billing quotas', visible(''), 5);
    expect(hit?.snippet).toBe('The NEAR «quota» for "«billing»" (per team) resets at midnight*');
  });
  it('drains a large backlog of bypassing writes over several store writes', async () => {
    const store = await open();
    await bypassingBulk(store, 2500, 'plover');
    const dirty = () => dirtyCount(store);
    await store.write((tx) => insert(tx, '', 'egret', 'an egret'));
    expect(await dirty()).toBe(501);
    expect(await store.memoryIndex.fullText('plover', visible(''), 5)).toHaveLength(5);
    await store.write((tx) => insert(tx, '', 'egret', 'another egret'));
    expect(await dirty()).toBe(0);
    expect(await store.memoryIndex.fullText('plover 2499', visible(''), 1)).toHaveLength(1);
    await expectConsistentStats(store);
  });

  it('a search that finds a backlog starts a background drain in small transactions', async () => {
    const store = await open();
    await bypassingBulk(store, 1200, 'dunlin');
    const dirty = () => dirtyCount(store);
    expect(await dirty()).toBe(1200);
    // No write follows: FTS5 answers this search and the drain it starts indexes the rest (on
    // PostgreSQL the search waits for that drain).
    expect(await store.memoryIndex.fullText('dunlin', visible(''), 3)).toHaveLength(3);
    await expect.poll(dirty, { timeout: 20_000, interval: 20 }).toBe(0);
    // One document-frequency delta row per drained transaction: several small ones.
    const steps = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_postings_df');
    expect(steps?.n).toBeGreaterThanOrEqual(4);
    const got = await store.memoryIndex.fullText('dunlin 1199', visible(''), 1);
    expect(ids(got)).toEqual(ids(await exhaustive(store, 'dunlin 1199', '', 1)));
    expect(got[0]?.snippet).toContain('«1199»');
    await expectConsistentStats(store);
  });
});
