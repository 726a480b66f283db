// The causal-link store operations on a real SQLite file: witnesses written as a set (kept,
// updated with strongest_at moving only on a stronger confidence, dropped), the traversal step
// (both ends active, skipped edges, heaviest first, bounded) and witness reads with counts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { vaultFixture, type VaultFixture } from '../../test/vault/store-fixture.js';
import {
  causalWitnessCounts,
  type CausalWitnessInput,
  deleteCausalEdges,
  replaceCausalWitnesses,
} from './vault-causal-links.js';
import { causalStep, causalWitnesses } from './vault-causal-read.js';
import { upsertVaultEdge } from './vault-edges.js';

let f: VaultFixture;
beforeEach(async () => {
  f = await vaultFixture();
});
afterEach(() => f.close());

const pair = (i: number, j: number, confidence: number): CausalWitnessInput => ({
  ...{ sourceFact: i, targetFact: j, sourceText: `s${i}`, targetText: `t${j}` },
  ...{ reasoning: `r${i}${j}`, confidence },
});

async function edge(sourceId: number, targetId: number, weight: number): Promise<number> {
  const e = { vault: 'default', sourceId, targetId, type: 'causal', origin: 'extracted' } as const;
  return (await f.store.write((tx) => upsertVaultEdge(tx, { ...e, weight }, 1))).id;
}

describe('causal witnesses', () => {
  it('makes the stored pairs exactly the given set, strongest_at moving only upward', async () => {
    const [a, b] = [
      await f.add({ path: 'a.md', text: 'a' }),
      await f.add({ path: 'b.md', text: 'b' }),
    ];
    const id = await edge(a, b, 0.7);
    await f.store.write((tx) =>
      replaceCausalWitnesses(tx, id, [pair(0, 1, 0.7), pair(2, 1, 0.6), pair(3, 1, 0.6)], 10),
    );
    await f.store.write((tx) =>
      replaceCausalWitnesses(tx, id, [pair(0, 1, 0.9), pair(2, 1, 0.5)], 20),
    );
    const r = await f.store.read((db) => causalWitnesses(db, [id], 3));
    expect(r.counts.get(id)).toBe(2);
    expect(r.rows.map((w) => [w.sourceFact, w.confidence, w.strongestAt, w.lastSeenAt])).toEqual([
      [0, 0.9, 20, 20],
      [2, 0.5, 10, 20],
    ]);
    expect(await f.store.read((db) => causalWitnessCounts(db, [id]))).toEqual(new Map([[id, 2]]));
    expect(await f.store.write((tx) => deleteCausalEdges(tx, [id]))).toBe(1);
    expect(await f.store.read((db) => causalWitnessCounts(db, [id]))).toEqual(new Map());
  });

  it('keeps the strongest few per edge and counts them all', async () => {
    const [a, b] = [
      await f.add({ path: 'a.md', text: 'a' }),
      await f.add({ path: 'b.md', text: 'b' }),
    ];
    const id = await edge(a, b, 0.7);
    const pairs = [
      pair(4, 0, 0.6),
      pair(1, 0, 0.9),
      pair(2, 0, 0.7),
      pair(3, 0, 0.7),
      pair(0, 0, 0.6),
    ];
    await f.store.write((tx) => replaceCausalWitnesses(tx, id, pairs, 5));
    const r = await f.store.read((db) => causalWitnesses(db, [id], 3));
    expect(r.counts.get(id)).toBe(5);
    expect(r.rows.map((w) => w.sourceFact)).toEqual([1, 2, 3]);
  });
});

describe('causalStep', () => {
  it('reaches only edges whose two ends are active, heaviest first, skipping and bounded', async () => {
    const ids: number[] = [];
    for (const p of ['r.md', 'x.md', 'y.md', 'z.md', 'gone.md'])
      ids.push(await f.add({ path: p, text: p }));
    const [r, x, y, z, gone] = ids as [number, number, number, number, number];
    const rx = await edge(r, x, 0.6);
    const ry = await edge(r, y, 0.9);
    await edge(r, gone, 1);
    const zr = await edge(z, r, 0.7);
    await f.store.write((tx) =>
      f.store.vaultIndex.deactivate(tx, 'default', [gone], 'forgotten', 1),
    );
    const step = (forward: boolean, skip: number[], limit: number) =>
      f.store.read((db) => causalStep(db, { fromIds: [r], forward, skipEdgeIds: skip, limit }));
    expect((await step(true, [], 10)).map((e) => [e.edgeId, e.fromId, e.toId])).toEqual([
      [ry, r, y],
      [rx, r, x],
    ]);
    expect((await step(true, [ry], 10)).map((e) => e.edgeId)).toEqual([rx]);
    expect((await step(true, [], 1)).map((e) => e.edgeId)).toEqual([ry]);
    expect(
      (await step(false, [], 10)).map((e) => [e.edgeId, e.fromId, e.toId, e.sourcePath]),
    ).toEqual([[zr, r, z, 'z.md']]);
  });
});
