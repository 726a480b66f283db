// The vector contract both PostgreSQL paths must keep (pgvector, and exact cosine over BYTEA):
// the same rows seeded into a SQLite store and the store under test give the same nearest
// neighbours in the same order, distances equal within 1e-6, for memory, code and vault.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSqliteStore, type Queryable, type Store } from '../../src/store/index.js';
import { addCollection, addFile } from '../code-rows.js';
import { createRng } from '../rng.js';

const DIMS = 8;
const SCOPES = [
  { tenant: '', team: 'red', agent: '' },
  { tenant: '', team: 'blue', agent: '' },
  { tenant: '', team: 'blue', agent: 'ann' },
];

/** Deterministic vectors: both stores get exactly the same floats. */
function vectors(seed: number, n: number, dims = DIMS): Float32Array[] {
  const next = createRng(seed);
  return Array.from({ length: n }, () => Float32Array.from({ length: dims }, () => next() - 0.5));
}

const nth = <T>(list: readonly T[], i: number): T => {
  const v = list[i];
  if (v === undefined) throw new Error(`no element ${i}`);
  return v;
};

async function addItem(tx: Queryable, i: number): Promise<number> {
  const s = nth(SCOPES, i % SCOPES.length);
  const row = await tx.get<{ rowid: number }>(
    `INSERT INTO memory_items (id, kind, tenant_id, team_id, agent_id, content, content_hash,
       created_at, updated_at) VALUES (?, 'fact', ?, ?, ?, ?, ?, 1, 1) RETURNING rowid`,
    [`f${i}`, s.tenant, s.team, s.agent, `fact ${i}`, `h${i}`],
  );
  return row?.rowid ?? 0;
}

async function addVaultFragments(tx: Queryable, collection: string, n: number) {
  const c = await tx.get<{ id: number }>(
    `INSERT INTO vault_collections (vault, name, created_at) VALUES ('v', ?, 1) RETURNING id`,
    [collection],
  );
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = await tx.get<{ id: number }>(
      `INSERT INTO vault_documents (vault, collection_id, path, docid, content, content_hash,
         created_at, modified_at, origin) VALUES ('v', ?, ?, ?, 'x', 'h', 1, 1, 'api') RETURNING id`,
      [c?.id ?? 0, `${collection}/${i}.md`, `${collection}-${i}`],
    );
    const f = await tx.get<{ id: number }>(
      `INSERT INTO vault_fragments (document_id, ordinal, kind, start_line, end_line, text)
       VALUES (?, 0, 'whole', 1, 1, ?) RETURNING id`,
      [d?.id ?? 0, `text ${i}`],
    );
    ids.push(f?.id ?? 0);
  }
  return { collection: c?.id ?? 0, fragments: ids };
}

/** Seeds one store: 90 memory items over three scopes, 2×40 chunks, 2×30 fragments. */
async function seed(store: Store) {
  return store.write(async (tx) => {
    const items = [];
    for (let i = 0; i < 90; i++) items.push(await addItem(tx, i));
    const m = vectors(1, items.length);
    await store.memoryIndex.putVectors(
      tx,
      'm',
      items.map((rowid, i) => ({ rowid, vector: nth(m, i) })),
    );
    const chunks = Array.from({ length: 40 }, (_, i) => ({ symbol: `f${i}`, text: `body ${i}` }));
    const ca = await addCollection(tx, 'a');
    const cb = await addCollection(tx, 'b');
    const fa = await addFile(tx, ca, 'src/a.ts', chunks);
    const fb = await addFile(tx, cb, 'lib/b.py', chunks);
    const c = vectors(2, 80);
    const allChunks = [...fa.chunks, ...fb.chunks];
    await store.codeIndex.putVectors(
      tx,
      'm',
      allChunks.map((chunkId, i) => ({ chunkId, vector: nth(c, i) })),
    );
    const va = await addVaultFragments(tx, 'notes', 30);
    const vb = await addVaultFragments(tx, 'docs', 30);
    const v = vectors(3, 60);
    await store.vaultIndex.putVectors(
      tx,
      'm',
      [...va.fragments, ...vb.fragments].map((fragmentId, i) => ({
        fragmentId,
        vector: nth(v, i),
      })),
    );
    return { items, ca, cb, chunks: allChunks, va, vb };
  });
}

type Hit = { id: number; distance: number };

/** Same ids in the same order, distances within 1e-6. */
function expectSame(actual: readonly Hit[], expected: readonly Hit[]): void {
  expect(actual.map((h) => h.id)).toEqual(expected.map((h) => h.id));
  actual.forEach((h, i) =>
    expect(Math.abs(h.distance - nth(expected, i).distance)).toBeLessThan(1e-6),
  );
}

const byId = (hits: readonly Hit[]): Hit[] => [...hits].sort((a, b) => a.id - b.id);
const asHits = (hits: readonly { rowid: number; distance: number }[]): Hit[] =>
  hits.map((h) => ({ id: h.rowid, distance: h.distance }));
const chunkHits = (hits: readonly { chunkId: number; distance: number }[]): Hit[] =>
  hits.map((h) => ({ id: h.chunkId, distance: h.distance }));

/**
 * Registers the contract for the store `open` gives (a fresh, empty database each call) against
 * a SQLite store seeded the same way.
 */
export function describeVectorContract(
  name: string,
  open: () => Promise<{ store: Store; close(): Promise<void> }>,
): void {
  describe(`vectors on ${name} rank as SQLite does`, () => {
    let dir: string;
    let lite: Store;
    let pg: { store: Store; close(): Promise<void> };
    let ids: Awaited<ReturnType<typeof seed>>;
    const queries = vectors(9, 6);
    const live = { sql: 'm.deleted_at IS NULL', params: [] };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cairn-vec-contract-'));
      lite = await openSqliteStore(join(dir, 'c.db'));
      pg = await open();
      ids = await seed(lite);
      expect(await seed(pg.store)).toEqual(ids);
    });
    afterAll(async () => {
      await pg.close();
      await lite.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('memory: nearest over every item and per scope partition, and distances', async () => {
      const filters = [
        live,
        { ...live, partitions: SCOPES.slice(1) },
        { sql: 'm.team_id = ?', params: ['red'], partitions: SCOPES.slice(0, 1) },
      ];
      for (const q of queries)
        for (const f of filters) {
          const run = async (s: Store) => asHits(await s.memoryIndex.nearest('m', q, f, 12));
          const want = await run(lite);
          expect(want.length).toBe(12);
          expectSame(await run(pg.store), want);
        }
      const some = ids.items.filter((_, i) => i % 7 === 0);
      const dist = async (s: Store) =>
        byId(asHits(await s.memoryIndex.distances('m', nth(queries, 0), some)));
      const want = await dist(lite);
      expect(want.length).toBe(some.length);
      expectSame(await dist(pg.store), want);
      expect(await pg.store.memoryIndex.nearest('other', nth(queries, 0), live, 5)).toEqual([]);
    });

    it('code: nearest per collection with path filters, and distances', async () => {
      const filters = [
        { collectionIds: [ids.ca, ids.cb] },
        { collectionIds: [ids.ca, ids.cb], extensions: ['.py'] },
        { collectionIds: [ids.ca], pathPrefix: 'src/' },
      ];
      for (const q of queries)
        for (const filter of filters) {
          const run = async (s: Store) => chunkHits(await s.codeIndex.nearest('m', q, filter, 10));
          const want = await run(lite);
          expect(want.length).toBe(10);
          expectSame(await run(pg.store), want);
        }
      const some = ids.chunks.slice(0, 15);
      const dist = async (s: Store) =>
        byId(chunkHits(await s.codeIndex.distances('m', nth(queries, 1), some)));
      const want = await dist(lite);
      expect(want.length).toBe(15);
      expectSame(await dist(pg.store), want);
    });

    it('vault: nearest per collection, the whole-document vector, and the backlog', async () => {
      const filter = { vault: 'v', now: 2 };
      for (const q of queries)
        for (const f of [filter, { ...filter, collections: ['docs'] }]) {
          const run = async (s: Store) =>
            (await s.vaultIndex.nearest('m', q, f, 9)).map((h) => ({
              id: h.fragmentId,
              distance: 1 - h.cosine,
            }));
          const want = await run(lite);
          expect(want.length).toBe(9);
          expectSame(await run(pg.store), want);
        }
      const doc = await pg.store.get<{ id: number }>(
        'SELECT document_id AS id FROM vault_fragments WHERE id = ?',
        [nth(ids.va.fragments, 4)],
      );
      const stored = await pg.store.vaultIndex.documentVector('m', doc?.id ?? 0);
      expect(stored).toEqual(nth(vectors(3, 60), 4));
      expect(await pg.store.vaultIndex.pendingVectors('m')).toBe(0);
      expect(await pg.store.vaultIndex.pendingVectors('other')).toBe(60);
      const backlog = await lite.vaultIndex.fragmentsToEmbed('other', 3, 4);
      expect(backlog.map((f) => f.id)).toEqual([4, 5, 6, 7]);
      expect(await pg.store.vaultIndex.fragmentsToEmbed('other', 3, 4)).toEqual(backlog);
    });

    it('drops a vector with its chunk, and moves an item to another dimension', async () => {
      const [first, second] = ids.chunks;
      await pg.store.run('UPDATE code_chunks SET text = ? WHERE id = ?', ['changed', first ?? 0]);
      await pg.store.run('DELETE FROM code_chunks WHERE id = ?', [second ?? 0]);
      const q = nth(queries, 2);
      const near = await pg.store.codeIndex.nearest('m', q, { collectionIds: [ids.ca] }, 40);
      expect(near.map((h) => h.chunkId)).not.toContain(first);
      expect(near.map((h) => h.chunkId)).not.toContain(second);
      expect(near.length).toBe(38);
      const gone = await pg.store.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM code_vec_p8 WHERE rowid IN (?, ?)',
        [first ?? 0, second ?? 0],
      );
      expect(gone?.n).toBe(0);

      const item = nth(ids.items, 0);
      const wide = nth(vectors(5, 1, 16), 0);
      await pg.store.write((tx) =>
        pg.store.memoryIndex.putVectors(tx, 'm2', [{ rowid: item, vector: wide }]),
      );
      expect(await pg.store.memoryIndex.distances('m', nth(queries, 0), [item])).toEqual([]);
      const moved = await pg.store.memoryIndex.nearest('m2', wide, live, 3);
      expect(moved.map((h) => h.rowid)).toEqual([item]);
      expect(moved[0]?.distance).toBeCloseTo(0, 6);
      const left = await pg.store.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM memory_vec_p8 WHERE rowid = ?',
        [item],
      );
      expect(left?.n).toBe(0);
    });
  });
}
