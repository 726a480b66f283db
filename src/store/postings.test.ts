// The memory postings beside FTS5: kept in step in the write transaction, followed by other
// connections' caches, exact against an exhaustive BM25 over the stored weights, close to FTS5's
// own bm25(), safe when a write bypassed the store, and back-filled in the background after
// migration 14.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createRng } from '../../test/rng.js';
import { IMPACT_SCALE, queryTerms, unpackTerms } from '../search/index.js';
import type { SqlFilter } from './memory-index.js';
import { MIGRATIONS } from './migrations.js';
import { addDeltas } from './postings-df.js';
import { scopeKey, type ScopePartition } from './scope-key.js';
import { applyMigrations, openSqliteStore } from './sqlite.js';
import type { Queryable, Store } from './types.js';

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

const WORDS = (
  'deploy rollback canary kafka postgres redis timeout retry lease backlog shard replica ' +
  'latency throughput migration schema index vacuum checkpoint journal payments billing ' +
  'invoice ledger search vector embedding token budget quota alert pager incident'
).split(' ');
const TEAMS = ['', 'red', 'blue'];

function sentence(rand: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
}

let nextId = 0;
async function insert(
  tx: Queryable,
  team: string,
  title: string,
  content: string,
): Promise<number> {
  nextId += 1;
  await tx.run(
    `INSERT INTO memory_items (id, kind, team_id, title, content, tags, content_hash, created_at, updated_at)
     VALUES (?, 'fact', ?, ?, ?, '[]', ?, 1, 1)`,
    [`i${nextId}-${Math.random()}`, team, title, content, `h${nextId}-${Math.random()}`],
  );
  const row = await tx.get<{ id: number }>('SELECT last_insert_rowid() AS id');
  return row?.id ?? 0;
}

const visible = (team: string): SqlFilter => {
  const partitions: ScopePartition[] = [{ tenant: '', team: '', agent: '' }];
  if (team !== '') partitions.push({ tenant: '', team, agent: '' });
  return {
    sql: `m.deleted_at IS NULL AND m.kind IN ('fact','procedure') AND m.lifecycle = 'active'
      AND m.tenant_id = '' AND m.team_id IN ('', ?) AND m.agent_id = ''`,
    params: [team],
    partitions,
  };
};

/** Top `k` by an exhaustive BM25 over every stored forward-index row of the scopes. */
async function exhaustive(store: Store, query: string, team: string, k: number) {
  const keys = (visible(team).partitions ?? []).map(scopeKey);
  const docs = await store.all<{ item: number; terms: Uint8Array }>(
    `SELECT d.item_id AS item, d.terms FROM memory_postings_docs d
     JOIN memory_scope_ids s ON s.id = d.scope_id
     WHERE d.terms IS NOT NULL AND s.key IN (SELECT value FROM json_each(?))`,
    [JSON.stringify(keys)],
  );
  // IDF over every live item, as FTS5 computes it.
  const all = await store.all<{ terms: Uint8Array }>(
    'SELECT terms FROM memory_postings_docs WHERE terms IS NOT NULL',
  );
  const wanted = new Set(
    (
      await store.all<{ id: number }>(
        'SELECT id FROM memory_terms WHERE term IN (SELECT value FROM json_each(?))',
        [JSON.stringify(queryTerms(query))],
      )
    ).map((t) => t.id),
  );
  const df = new Map<number, number>();
  for (const d of all)
    for (const id of unpackTerms(d.terms).ids)
      if (wanted.has(id)) df.set(id, (df.get(id) ?? 0) + 1);
  const n = all.length;
  const w = new Map(
    [...df].map(([id, f]) => [id, Math.max(1e-6, Math.log((n - f + 0.5) / (f + 0.5)))]),
  );
  const scored = docs.flatMap((d) => {
    const { ids, impacts } = unpackTerms(d.terms);
    let s = 0;
    let hit = false;
    ids.forEach((id, i) => {
      const weight = w.get(id);
      if (weight === undefined) return;
      hit = true;
      s += (weight * (impacts[i] ?? 0)) / IMPACT_SCALE;
    });
    return hit ? [{ rowid: d.item, bm25: s }] : [];
  });
  scored.sort((a, b) => b.bm25 - a.bm25 || a.rowid - b.rowid);
  return scored.slice(0, k);
}

/** The collection statistics equal a recount from the stored rows, one row per live item. */
async function expectConsistentStats(store: Store): Promise<void> {
  const docs = await store.all<{ length: number; terms: Uint8Array }>(
    'SELECT length, terms FROM memory_postings_docs WHERE terms IS NOT NULL',
  );
  const stats = await store.get<{ docs: number; total: number }>(
    'SELECT docs, total_length AS total FROM memory_postings_stats',
  );
  expect(stats).toEqual({ docs: docs.length, total: docs.reduce((a, d) => a + d.length, 0) });
  // Folded document frequencies plus pending deltas equal a recount.
  const df = new Map<number, number>();
  for (const r of await store.all<{ id: number; df: number }>(
    'SELECT id, df FROM memory_terms WHERE df <> 0',
  ))
    df.set(r.id, r.df);
  for (const r of await store.all<{ deltas: Uint8Array }>('SELECT deltas FROM memory_postings_df'))
    addDeltas(df, r.deltas);
  const recount = new Map<number, number>();
  for (const d of docs)
    for (const id of unpackTerms(d.terms).ids) recount.set(id, (recount.get(id) ?? 0) + 1);
  expect(new Map([...df].filter(([, f]) => f !== 0))).toEqual(recount);
  const live = await store.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM memory_items WHERE scope_key <> ''",
  );
  expect(live?.n).toBe(docs.length);
}

const ids = (hits: readonly { rowid: number }[]): number[] => hits.map((h) => h.rowid);

/** Items waiting to be indexed. */
const dirtyCount = async (store: Store): Promise<number | undefined> =>
  (await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_postings_dirty'))?.n;

/** Inserts `n` global facts `<word> note <i>` in one statement that bypasses the store's flush. */
const bypassingBulk = (store: Store, n: number, word: string) =>
  store.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO memory_items (id, kind, title, content, tags, content_hash, created_at, updated_at)
     SELECT 'bulk' || i, 'fact', ?, ? || ' note ' || i, '[]', 'h' || i, 1, 1 FROM n`,
    [n, word, word],
  );

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
    const writer = await open();
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

  it('folds document-frequency deltas and a reader that missed the fold reloads them', async () => {
    const reader = await open();
    const writer = await open();
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
      'SELECT (SELECT COUNT(*) FROM memory_postings_df) AS n, df_seq AS dfSeq FROM memory_postings_stats',
    );
    expect(folded?.n).toBeLessThan(256);
    expect(folded?.dfSeq).toBeGreaterThan(1);
    const got = await reader.memoryIndex.fullText(query, visible('red'), 10);
    const want = await exhaustive(reader, query, 'red', 10);
    expect(ids(got)).toEqual(ids(want));
    got.forEach((h, i) => expect(h.bm25).toBeCloseTo(want[i]?.bm25 ?? -1, 9));
    await expectConsistentStats(writer);
  });

  it('a write that bypassed the store is still found (FTS5 ranks until the next flush)', async () => {
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
    // No write follows: FTS5 answers this search, and the drain it starts indexes the rest.
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

describe('migration 14', () => {
  it('marks the items a database already had, and opening the store indexes them in the background', async () => {
    const path = join(dir, 'old.db');
    const db = new Database(path);
    sqliteVec.load(db);
    applyMigrations(
      db,
      MIGRATIONS.filter((m) => m.version < 14),
    );
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
