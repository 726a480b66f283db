// The code corpus on the shared postings engine: ranking equals a BM25 computed here from the
// code tokenizer's tokens, postings follow chunk inserts, edits, file renames and cascading
// deletes inside the write that made them, collections stay apart, filters narrow, and another
// connection's cache follows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { addCollection, addFile, type ChunkRow } from '../../test/code-rows.js';
import { createRng } from '../../test/rng.js';
import { CODE_FIELD_WEIGHTS, codeProse, codeTokenizer } from '../search/index.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

let dir: string;
const stores: Store[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-code-index-'));
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

const PARTS = (
  'get set user name file path read write parse json http server cache index token query ' +
  'search chunk retry lease open close stream buffer config load save flush commit'
).split(' ');

function identifier(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 3);
  const parts = Array.from({ length: n }, () => PARTS[Math.floor(rand() * PARTS.length)] ?? 'x');
  if (rand() < 0.5) return parts.join('_');
  return parts.map((p, i) => (i === 0 ? p : `${p[0]?.toUpperCase()}${p.slice(1)}`)).join('');
}

function chunk(rand: () => number): ChunkRow {
  const symbol = identifier(rand);
  const args = Array.from({ length: Math.floor(rand() * 3) }, () => identifier(rand));
  const body = Array.from({ length: 3 + Math.floor(rand() * 25) }, () => identifier(rand));
  const note = Array.from({ length: Math.floor(rand() * 4) }, () => identifier(rand));
  const comment = note.length === 0 ? '' : `\n  // ${note.join(' ')}`;
  return {
    symbol: rand() < 0.9 ? symbol : null,
    signature: `function ${symbol}(${args.join(', ')})`,
    text: `function ${symbol}(${args.join(', ')}) {${comment}\n  return ${body.join(' + ')};\n}`,
  };
}

/** Fills two collections with random files and chunks in one write; returns their ids. */
async function randomCorpus(store: Store, seed: number) {
  const rand = createRng(seed);
  return store.write(async (tx) => {
    const ids = [await addCollection(tx, 'alpha'), await addCollection(tx, 'beta')];
    for (let f = 0; f < 30; f++) {
      const path = `src/${identifier(rand)}/${identifier(rand)}.${f % 3 === 0 ? 'py' : 'ts'}`;
      const chunks = Array.from({ length: 3 + (f % 9) }, () => chunk(rand));
      await addFile(tx, ids[f % 2] ?? 0, path, chunks);
    }
    return { ids, rand };
  });
}

interface Scored {
  rowid: number;
  bm25: number;
}

/** FTS5's BM25 over the CODE_FIELD_WEIGHTS fields, from the code tokens of every chunk. */
async function bruteForce(store: Store, query: string, collections: number[]): Promise<Scored[]> {
  const rows = await store.all<{
    id: number;
    collection: number;
    symbol: string | null;
    signature: string | null;
    path: string;
    language: string | null;
    text: string;
  }>(
    `SELECT c.id, c.collection_id AS collection, c.symbol, c.signature, f.path, f.language, c.text
     FROM code_chunks c JOIN code_files f ON f.id = c.file_id`,
  );
  const docs = rows.map((r) => {
    const tf = new Map<string, number>();
    let length = 0;
    const fields: Array<[string, number]> = [
      [r.symbol ?? '', CODE_FIELD_WEIGHTS.symbol],
      [r.signature ?? '', CODE_FIELD_WEIGHTS.signature],
      [codeProse(r.text, r.language), CODE_FIELD_WEIGHTS.prose],
      [r.text, CODE_FIELD_WEIGHTS.text],
      [r.path, CODE_FIELD_WEIGHTS.path],
    ];
    for (const [text, weight] of fields) {
      for (const t of codeTokenizer.tokenize(text)) {
        tf.set(t.term, (tf.get(t.term) ?? 0) + weight);
        length += 1;
      }
    }
    return { id: r.id, collection: r.collection, tf, length };
  });
  const n = docs.length;
  const avgdl = docs.reduce((a, d) => a + d.length, 0) / n;
  const terms = codeTokenizer.queryTerms(query);
  const idf = new Map(
    terms.map((t) => {
      const df = docs.filter((d) => d.tf.has(t)).length;
      return [t, Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5)))];
    }),
  );
  const [k1, b] = [1.2, 0.75];
  return docs
    .filter((d) => collections.includes(d.collection) && terms.some((t) => d.tf.has(t)))
    .map((d) => {
      let s = 0;
      for (const t of terms) {
        const f = d.tf.get(t) ?? 0;
        if (f > 0)
          s += ((idf.get(t) ?? 0) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / avgdl));
      }
      return { rowid: d.id, bm25: s };
    })
    .sort((x, y) => y.bm25 - x.bm25 || x.rowid - y.rowid);
}

const chunkIds = (hits: readonly { chunkId: number }[]): number[] => hits.map((h) => h.chunkId);
const pendingAll = (store: Store) => store.codeIndex.pending([1, 2, 3]);

describe('code corpus postings', () => {
  it('rank like a BM25 computed from the code tokens, within each collection', async () => {
    const store = await open();
    const { ids, rand } = await randomCorpus(store, 7);
    // Integer impacts (1e-4 of a weight): scores agree to ~1e-3, and the set of hits is exact.
    const tolerance = 5e-3;
    for (let q = 0; q < 30; q++) {
      const query = Array.from({ length: 1 + (q % 3) }, () => identifier(rand)).join(' ');
      const collections = q % 3 === 2 ? ids : [ids[q % 2] ?? 0];
      const got = await store.codeIndex.fullText(query, { collectionIds: collections }, 10);
      const want = await bruteForce(store, query, collections);
      expect(got.length, query).toBe(Math.min(10, want.length));
      const truth = new Map(want.map((w) => [w.rowid, w.bm25]));
      for (const h of got) {
        expect(truth.has(h.chunkId), query).toBe(true);
        expect(Math.abs(h.bm25 - (truth.get(h.chunkId) ?? 0)), query).toBeLessThan(tolerance);
        expect(h.score).toBeCloseTo(h.bm25 / (1 + h.bm25), 12);
      }
      // Nothing left out scores above the last hit; the order is the true order up to ties.
      const returned = new Set(chunkIds(got));
      const last = got[got.length - 1]?.bm25 ?? 0;
      for (const w of want)
        if (!returned.has(w.rowid)) expect(w.bm25).toBeLessThan(last + tolerance);
      got.forEach((h, i) =>
        expect(truth.get(h.chunkId) ?? 0).toBeGreaterThan(
          (truth.get(got[i + 1]?.chunkId ?? -1) ?? -1) - tolerance,
        ),
      );
    }
  });

  it('weights a symbol above a body mention and marks the match in the snippet', async () => {
    const store = await open();
    const [a] = await store.write(async (tx) => {
      const c = await addCollection(tx, 'a');
      await addFile(tx, c, 'src/app.ts', [
        { symbol: 'loadUserProfile', signature: 'loadUserProfile(id)', text: 'return fetchIt(id)' },
        { symbol: 'render', signature: 'render()', text: 'const p = loadUserProfile(1); draw(p)' },
        { symbol: 'unrelated', signature: 'unrelated()', text: 'return 42' },
      ]);
      return [c];
    });
    const hits = await store.codeIndex.fullText('loadUserProfile', { collectionIds: [a ?? 0] }, 5);
    expect(hits).toHaveLength(2);
    expect(hits[0]?.bm25).toBeGreaterThan(hits[1]?.bm25 ?? Infinity);
    expect(hits[1]?.snippet).toContain('«loadUserProfile»');
    // Parts of the identifier find it too.
    const parts = await store.codeIndex.fullText('user profile', { collectionIds: [a ?? 0] }, 5);
    expect(parts).toHaveLength(2);
    expect(await store.codeIndex.fullText('   ', { collectionIds: [a ?? 0] }, 5)).toEqual([]);
    expect(await store.codeIndex.fullText('render', { collectionIds: [] }, 5)).toEqual([]);
  });

  it('follow inserts, edits, renames and cascading deletes in the write that made them', async () => {
    const store = await open();
    const setup = await store.write(async (tx) => {
      const c = await addCollection(tx, 'a');
      const one = await addFile(tx, c, 'lib/kestrel.ts', [
        { symbol: 'kestrelNest', text: 'roost()' },
      ]);
      const two = await addFile(tx, c, 'lib/heron.ts', [{ symbol: 'heronWade', text: 'fish()' }]);
      return { c, one, two };
    });
    const scope = { collectionIds: [setup.c] };
    const find = async (q: string) => chunkIds(await store.codeIndex.fullText(q, scope, 10));
    const [kestrel] = setup.one.chunks;
    const [heron] = setup.two.chunks;
    expect(await find('kestrel')).toEqual([kestrel]);
    // An edit: the old text's terms no longer find the chunk, the new ones do, at once.
    await store.write((tx) =>
      tx.run("UPDATE code_chunks SET text = 'perch(); falcon()' WHERE id = ?", [kestrel ?? 0]),
    );
    expect(await find('roost')).toEqual([]);
    expect(await find('falcon')).toEqual([kestrel]);
    // A renamed file re-indexes its chunks' path terms.
    await store.write((tx) =>
      tx.run("UPDATE code_files SET path = 'lib/osprey.ts' WHERE id = ?", [setup.two.file]),
    );
    expect(await find('osprey')).toEqual([heron]);
    expect(await find('heron')).toEqual([heron]); // still the symbol
    // Deleting the file cascades to its chunks, and the postings follow the trigger.
    await store.write((tx) => tx.run('DELETE FROM code_files WHERE id = ?', [setup.two.file]));
    expect(await find('heron osprey')).toEqual([]);
    expect(await pendingAll(store)).toBe(0);
    const docs = await store.get<{ docs: number }>('SELECT docs FROM code_postings_stats');
    expect(docs?.docs).toBe(1);
    // Deleting the collection empties the corpus.
    await store.write((tx) => tx.run('DELETE FROM code_collections WHERE id = ?', [setup.c]));
    expect(await find('falcon kestrel')).toEqual([]);
    const after = await store.get<{ docs: number; total: number }>(
      'SELECT docs, total_length AS total FROM code_postings_stats',
    );
    expect(after).toEqual({ docs: 0, total: 0 });
  });

  it('keeps collections apart and narrows by extension, path prefix and branch', async () => {
    const store = await open();
    const made = await store.write(async (tx) => {
      const a = await addCollection(tx, 'a');
      const b = await addCollection(tx, 'b');
      const same = [{ symbol: 'parseConfig', text: 'read the config file' }];
      const inA = await addFile(tx, a, 'src/config.ts', same);
      const inB = await addFile(tx, b, 'src/config.ts', same);
      // Many .ts matches ranked above the one .md match, so a narrowed search must dig deeper.
      const many = Array.from({ length: 120 }, (_, i) => ({
        symbol: `parseConfig${i}`,
        signature: 'parseConfig parseConfig',
        text: 'parseConfig(config)',
      }));
      await addFile(tx, a, 'src/many.ts', many);
      const doc = await addFile(tx, a, 'docs/config.MD', [{ text: 'the config is parsed once' }]);
      const branch = await addFile(tx, a, 'src/config.ts', same, 'main');
      return { a, b, inA, inB, doc, branch };
    });
    const only = await store.codeIndex.fullText('parseConfig', { collectionIds: [made.b] }, 10);
    expect(chunkIds(only)).toEqual(made.inB.chunks);
    const md = await store.codeIndex.fullText(
      'config',
      { collectionIds: [made.a], extensions: ['*.md'] },
      3,
    );
    expect(chunkIds(md)).toEqual(made.doc.chunks);
    const prefixed = await store.codeIndex.fullText(
      'config',
      { collectionIds: [made.a], pathPrefix: './docs/' },
      3,
    );
    expect(chunkIds(prefixed)).toEqual(made.doc.chunks);
    const onMain = await store.codeIndex.fullText(
      'parseConfig',
      { collectionIds: [made.a], branches: ['main'] },
      5,
    );
    expect(chunkIds(onMain)).toEqual(made.branch.chunks);
    const anyBranch = await store.codeIndex.fullText(
      'read',
      { collectionIds: [made.a], branches: [] },
      10,
    );
    expect(chunkIds(anyBranch).sort()).toEqual([...made.inA.chunks, ...made.branch.chunks].sort());
    const both = await store.codeIndex.fullText(
      'read',
      { collectionIds: [made.a, made.b], branches: [''] },
      10,
    );
    expect(chunkIds(both).sort()).toEqual([...made.inA.chunks, ...made.inB.chunks].sort());
  });

  it("another connection's writes reach this connection's cached lists", async () => {
    const reader = await open();
    const writer = await open();
    const c = await writer.write((tx) => addCollection(tx, 'a'));
    await writer.write((tx) => addFile(tx, c, 'a.ts', [{ symbol: 'plover', text: 'x' }]));
    expect(await reader.codeIndex.fullText('plover', { collectionIds: [c] }, 5)).toHaveLength(1);
    const second = await writer.write((tx) =>
      addFile(tx, c, 'b.ts', [{ symbol: 'ploverNest', text: 'y' }]),
    );
    await writer.write((tx) => tx.run("DELETE FROM code_files WHERE path = 'a.ts'"));
    const hits = await reader.codeIndex.fullText('plover', { collectionIds: [c] }, 5);
    expect(chunkIds(hits)).toEqual(second.chunks);
  });
});
