// The vault document graph's store operations on a real store (SQLite, or PostgreSQL on the
// postgres project): idempotent edge writes, removal by origin around documents, active totals,
// and neighbours with the retrieval filter applied inside the query (an inactive or archived
// document never takes a slot).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type TempStore, tempStore } from '../../test/store-backends.js';
import type { Store } from './types.js';
import {
  countActiveEdges,
  removeVaultEdges,
  upsertVaultEdge,
  type VaultEdgeInput,
  vaultNeighbours,
} from './vault-edges.js';

let temp: TempStore;
let store: Store;
beforeEach(async () => {
  temp = await tempStore();
  store = temp.store;
});
afterEach(async () => {
  await temp.close();
});

const NOW = 1_750_000_000_000;

/** Documents named by path in one collection of the default vault; returns their row ids. */
async function docs(paths: readonly string[]): Promise<number[]> {
  return store.write(async (tx) => {
    const c = await store.vaultIndex.ensureCollection(tx, {
      vault: 'default',
      name: 'notes',
      contentRoot: '/tmp/notes',
      pattern: '**/*.md',
      now: NOW,
    });
    const ids: number[] = [];
    for (const path of paths) {
      const d = await store.vaultIndex.upsertDocument(tx, {
        vault: 'default',
        collectionId: c.id,
        path,
        title: path,
        contentType: 'note',
        frontmatter: {},
        content: path,
        contentHash: path,
        size: 1,
        mtime: 1,
        lines: 1,
        words: 1,
        modifiedAt: NOW,
        authoredAt: null,
        confidence: null,
        quality: null,
        origin: 'fs',
        now: NOW,
      });
      ids.push(d.id);
    }
    return ids;
  });
}

const edge = (sourceId: number, targetId: number, over: Partial<VaultEdgeInput> = {}) => ({
  vault: 'default',
  sourceId,
  targetId,
  type: 'causal' as const,
  weight: 1,
  origin: 'extracted' as const,
  ...over,
});

describe('vault edges', () => {
  it('writes an edge once and reports later writes as existing', async () => {
    const [a = 0, b = 0] = await docs(['a.md', 'b.md']);
    const first = await store.write((tx) => upsertVaultEdge(tx, edge(a, b), NOW));
    const again = await store.write((tx) => upsertVaultEdge(tx, edge(a, b, { weight: 0.4 }), NOW));
    expect(first.inserted).toBe(true);
    expect(again).toEqual({ id: first.id, inserted: false });
    const row = await store.get<{ weight: number }>('SELECT weight FROM vault_edges WHERE id = ?', [
      first.id,
    ]);
    expect(row?.weight).toBe(0.4);
    expect(await countActiveEdges(store, 'default', 'causal')).toBe(1);
    expect(await countActiveEdges(store, 'default', 'semantic')).toBe(0);
  });

  it('removes only the named origin and type around the documents, witnesses too', async () => {
    const [a = 0, b = 0, c = 0] = await docs(['a.md', 'b.md', 'c.md']);
    await store.write(async (tx) => {
      const e = await upsertVaultEdge(tx, edge(a, b), NOW);
      await tx.run(
        `INSERT INTO vault_causal_witnesses VALUES (?, 0, 1, 'x', 'y', 'because', 0.8, ?, ?)`,
        [e.id, NOW, NOW],
      );
      await upsertVaultEdge(tx, edge(c, a, { origin: 'declared' }), NOW);
      await upsertVaultEdge(tx, edge(b, c, { type: 'temporal', origin: 'built' }), NOW);
    });
    const gone = await store.write((tx) =>
      removeVaultEdges(tx, {
        documentIds: [a],
        type: 'causal',
        origin: 'extracted',
        end: 'either',
      }),
    );
    expect(gone).toBe(1);
    const left = await store.all<{ n: number }>('SELECT COUNT(*) AS n FROM vault_causal_witnesses');
    expect(left[0]?.n).toBe(0);
    expect(await countActiveEdges(store, 'default', 'causal')).toBe(1);
    expect(await countActiveEdges(store, 'default', 'temporal')).toBe(1);
  });

  it('reaches only eligible neighbours, heaviest first, at most perAnchor each', async () => {
    const [a = 0, b = 0, c = 0, d = 0] = await docs(['a.md', 'b.md', 'c.md', 'd.md']);
    await store.write(async (tx) => {
      await upsertVaultEdge(tx, edge(a, b, { weight: 0.5 }), NOW);
      await upsertVaultEdge(tx, edge(a, c, { weight: 0.9 }), NOW);
      await upsertVaultEdge(tx, edge(a, d, { weight: 1 }), NOW);
      await tx.run('UPDATE vault_documents SET active = 0 WHERE id = ?', [d]);
    });
    const filter = { vault: 'default', now: NOW };
    const forward = await vaultNeighbours(store, {
      fromIds: [a],
      type: 'causal',
      forward: true,
      filter,
      perAnchor: 1,
    });
    expect(forward.map((n) => n.id)).toEqual([c]);
    const back = await vaultNeighbours(store, {
      fromIds: [b, c],
      type: 'causal',
      forward: false,
      filter,
      perAnchor: 3,
    });
    expect(back.map((n) => [n.fromId, n.id])).toEqual([
      [b, a],
      [c, a],
    ]);
    expect(await countActiveEdges(store, 'default', 'causal')).toBe(2);
  });
});
