// Chunk vectors: nearest neighbours per collection, filters and model rechecked, a changed or
// deleted chunk's vector dropped (from code_vectors and its vec0 table), distances by id.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { addCollection, addFile } from '../../test/code-rows.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-code-vectors-'));
  store = await openSqliteStore(join(dir, 'v.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A unit vector at `angle` radians in the first two of `dims` dimensions. */
const at = (angle: number, dims = 4): Float32Array => {
  const v = new Float32Array(dims);
  v[0] = Math.cos(angle);
  v[1] = Math.sin(angle);
  return v;
};

const vecRows = async (dims = 4): Promise<number | undefined> =>
  (await store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM code_vec_p${dims}`))?.n;

/** Two collections of five chunks each; chunk i of both sits at angle i / 10. */
async function seed() {
  return store.write(async (tx) => {
    const a = await addCollection(tx, 'a');
    const b = await addCollection(tx, 'b');
    const chunks = Array.from({ length: 5 }, (_, i) => ({ symbol: `f${i}`, text: `body ${i}` }));
    const fa = await addFile(tx, a, 'src/a.ts', chunks);
    const fb = await addFile(tx, b, 'lib/b.py', chunks);
    await store.codeIndex.putVectors(
      tx,
      'm1',
      [...fa.chunks, ...fb.chunks].map((chunkId, i) => ({ chunkId, vector: at((i % 5) / 10) })),
    );
    return { a, b, fa, fb };
  });
}

describe('code chunk vectors', () => {
  it('finds the nearest chunks of the asked collections only, closest first', async () => {
    const { a, b, fa, fb } = await seed();
    const near = await store.codeIndex.nearest('m1', at(0.31), { collectionIds: [a] }, 3);
    expect(near.map((h) => h.chunkId)).toEqual([fa.chunks[3], fa.chunks[4], fa.chunks[2]]);
    expect(near[0]?.distance).toBeCloseTo(1 - Math.cos(0.01), 5);
    const inB = await store.codeIndex.nearest('m1', at(0), { collectionIds: [b] }, 10);
    expect(inB.map((h) => h.chunkId)).toEqual(fb.chunks);
    const both = await store.codeIndex.nearest('m1', at(0), { collectionIds: [a, b] }, 2);
    expect(both.map((h) => h.chunkId).sort()).toEqual([fa.chunks[0], fb.chunks[0]].sort());
    // Another model's vectors, another dimension, an empty collection list: nothing.
    expect(await store.codeIndex.nearest('m2', at(0), { collectionIds: [a] }, 3)).toEqual([]);
    expect(await store.codeIndex.nearest('m1', at(0, 8), { collectionIds: [a] }, 3)).toEqual([]);
    expect(await store.codeIndex.nearest('m1', at(0), { collectionIds: [] }, 3)).toEqual([]);
  });

  it('applies the file filters to vector hits', async () => {
    const { a, b, fb } = await seed();
    const py = await store.codeIndex.nearest(
      'm1',
      at(0),
      { collectionIds: [a, b], extensions: ['py'] },
      10,
    );
    expect(py.map((h) => h.chunkId)).toEqual(fb.chunks);
    const src = await store.codeIndex.nearest(
      'm1',
      at(0),
      { collectionIds: [a, b], pathPrefix: 'lib/' },
      10,
    );
    expect(src.map((h) => h.chunkId)).toEqual(fb.chunks);
  });

  it('drops a vector when its chunk changes or goes, and replaces one on re-embedding', async () => {
    const { a, fa } = await seed();
    expect(await vecRows()).toBe(10);
    const [c0, c1] = fa.chunks;
    await store.write((tx) =>
      tx.run("UPDATE code_chunks SET text = 'changed' WHERE id = ?", [c0 ?? 0]),
    );
    // A moved line range keeps the vector (the text is the same).
    await store.write((tx) =>
      tx.run('UPDATE code_chunks SET start_line = 9 WHERE id = ?', [c1 ?? 0]),
    );
    expect(await vecRows()).toBe(9);
    const near = await store.codeIndex.nearest('m1', at(0), { collectionIds: [a] }, 10);
    expect(near.map((h) => h.chunkId)).toEqual(fa.chunks.slice(1));
    // Re-embedding replaces the old vector (one row per chunk), even with another model.
    await store.write((tx) =>
      store.codeIndex.putVectors(tx, 'm1', [{ chunkId: c1 ?? 0, vector: at(2) }]),
    );
    await store.write((tx) =>
      store.codeIndex.putVectors(tx, 'm2', [{ chunkId: c1 ?? 0, vector: at(2) }]),
    );
    expect(await vecRows()).toBe(9);
    expect(
      (await store.codeIndex.nearest('m2', at(2), { collectionIds: [a] }, 5)).map((h) => h.chunkId),
    ).toEqual([c1]);
    // Deleting the file cascades: chunks, their code_vectors rows and the vec0 rows.
    await store.write((tx) => tx.run('DELETE FROM code_files WHERE id = ?', [fa.file]));
    expect(await vecRows()).toBe(5);
    const left = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM code_vectors');
    expect(left?.n).toBe(5);
  });

  it('gives the distances of listed chunks and skips chunks that are gone', async () => {
    const { fa, fb } = await seed();
    const got = await store.codeIndex.distances('m1', at(0), [
      fa.chunks[1] ?? 0,
      fb.chunks[4] ?? 0,
      999,
    ]);
    const byId = new Map(got.map((h) => [h.chunkId, h.distance]));
    expect(byId.size).toBe(2);
    expect(byId.get(fa.chunks[1] ?? 0)).toBeCloseTo(1 - Math.cos(0.1), 5);
    expect(byId.get(fb.chunks[4] ?? 0)).toBeCloseTo(1 - Math.cos(0.4), 5);
    expect(await store.codeIndex.distances('m2', at(0), fa.chunks)).toEqual([]);
    await store.write((tx) =>
      store.codeIndex.putVectors(tx, 'm1', [{ chunkId: 999, vector: at(0) }]),
    );
    const stored = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM code_vectors');
    expect(stored?.n).toBe(10);
  });
});
