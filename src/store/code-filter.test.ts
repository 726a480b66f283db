// The code filter's criteria beyond collections: several path prefixes, languages (null for
// files without a grammar), chunk kinds and symbols (whole, member, container), each narrowing
// full text and vectors alike, and criteria combining with AND.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { addCollection, addFile } from '../../test/code-rows.js';
import type { CodeFilter } from './code-filter.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-code-filter-'));
  store = await openSqliteStore(join(dir, 'f.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One collection: a TypeScript class with a method, a Python function, a markdown window. */
async function seed() {
  return store.write(async (tx) => {
    const c = await addCollection(tx, 'c');
    const ts = await addFile(
      tx,
      c,
      'src/cache.ts',
      [
        { kind: 'class', symbol: 'LruCache', text: 'class LruCache { get(key) { … } }' },
        { kind: 'method', symbol: 'LruCache.get', text: 'get(key) { return this.cache.get(key) }' },
      ],
      { language: 'typescript' },
    );
    const py = await addFile(
      tx,
      c,
      'lib/cache.py',
      [{ kind: 'function', symbol: 'get_cache', text: 'def get_cache(key): return cache[key]' }],
      { language: 'python' },
    );
    const md = await addFile(tx, c, 'docs/cache.md', [
      { kind: 'window', symbol: null, text: 'The cache keeps the last key read.' },
    ]);
    return { c, ts: ts.chunks, py: py.chunks, md: md.chunks };
  });
}

const ids = async (filter: CodeFilter): Promise<number[]> =>
  (await store.codeIndex.fullText('cache key', filter, 20)).map((h) => h.chunkId).sort();

describe('code filter', () => {
  it('narrows by any of several path prefixes', async () => {
    const s = await seed();
    expect(await ids({ collectionIds: [s.c], pathPrefixes: ['src/', './lib/'] })).toEqual(
      [...s.ts, ...s.py].sort(),
    );
    expect(await ids({ collectionIds: [s.c], pathPrefix: 'src/', pathPrefixes: ['lib/'] })).toEqual(
      [],
    );
  });

  it('narrows by language, null meaning a file without a grammar', async () => {
    const s = await seed();
    expect(await ids({ collectionIds: [s.c], languages: ['python'] })).toEqual(s.py);
    expect(await ids({ collectionIds: [s.c], languages: [null] })).toEqual(s.md);
    expect(await ids({ collectionIds: [s.c], languages: ['python', null] })).toEqual(
      [...s.py, ...s.md].sort(),
    );
  });

  it('narrows by chunk kind', async () => {
    const s = await seed();
    expect(await ids({ collectionIds: [s.c], kinds: ['method', 'window'] })).toEqual(
      [s.ts[1] ?? 0, ...s.md].sort(),
    );
  });

  it('matches a symbol whole, as a member, or as the container of members, ignoring case', async () => {
    const s = await seed();
    expect(await ids({ collectionIds: [s.c], symbols: ['lrucache'] })).toEqual(s.ts);
    expect(await ids({ collectionIds: [s.c], symbols: ['get'] })).toEqual([s.ts[1] ?? 0]);
    expect(await ids({ collectionIds: [s.c], symbols: ['GET_CACHE'] })).toEqual(s.py);
    expect(await ids({ collectionIds: [s.c], symbols: ['cache'] })).toEqual([]);
    expect(await ids({ collectionIds: [s.c], symbols: ['  '] })).toEqual(
      [...s.ts, ...s.py, ...s.md].sort(),
    );
  });

  it('combines criteria with AND and applies to nearest too', async () => {
    const s = await seed();
    expect(
      await ids({ collectionIds: [s.c], languages: ['typescript'], kinds: ['class'] }),
    ).toEqual([s.ts[0] ?? 0]);
    const all = [...s.ts, ...s.py, ...s.md];
    const v = new Float32Array([1, 0, 0, 0]);
    await store.write((tx) =>
      store.codeIndex.putVectors(
        tx,
        'm',
        all.map((chunkId) => ({ chunkId, vector: v })),
      ),
    );
    const near = await store.codeIndex.nearest(
      'm',
      v,
      { collectionIds: [s.c], kinds: ['function'] },
      5,
    );
    expect(near.map((h) => h.chunkId)).toEqual(s.py);
  });
});
