// causalHop on a real store: heaviest edges first within the per-anchor cap, a snoozed or
// internal neighbour skipped without spending a slot, a document reached from two anchors
// marked by each (best score kept), and anchors that neighbour each other marked, not counted.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { NOW, type VaultFixture, vaultFixture } from '../../../test/vault/store-fixture.js';
import { INTERNAL_COLLECTION, upsertVaultEdge } from '../../store/index.js';
import { causalHop, HOP_DECAY } from './causal-hop.js';

let f: VaultFixture;
beforeEach(async () => {
  f = await vaultFixture();
});
afterEach(() => f.close());

const doc = (path: string, collection?: string) =>
  f.add({ path, text: `Plain ${path}.`, ...(collection === undefined ? {} : { collection }) });
const edge = (sourceId: number, targetId: number, weight: number) =>
  f.store.write((tx) =>
    upsertVaultEdge(
      tx,
      { vault: 'default', sourceId, targetId, type: 'causal', weight, origin: 'declared' },
      NOW,
    ),
  );
const anchor = (id: number, rank = 1) => ({ id, docid: `#${id}`, rank });
const paths = async (ids: Iterable<number>) =>
  (await f.store.vaultIndex.documentsById('default', [...ids])).map((r) => r.path).sort();

describe('causalHop', () => {
  it('takes the three heaviest eligible neighbours; snoozed and internal ones take no slot', async () => {
    const a = await doc('a.md');
    const snoozed = await doc('snoozed.md');
    const internal = await doc('observations/o.md', INTERNAL_COLLECTION);
    const [n1, n2, n3, n4] = [
      await doc('n1.md'),
      await doc('n2.md'),
      await doc('n3.md'),
      await doc('n4.md'),
    ];
    await edge(snoozed, a, 1);
    await edge(a, internal, 0.95);
    await edge(n1, a, 0.9);
    await edge(a, n2, 0.8);
    await edge(n3, a, 0.7);
    await edge(n4, a, 0.6);
    await f.store.write((tx) => f.store.vaultIndex.setSnoozed(tx, 'default', [snoozed], NOW + 1e9));
    const r = await causalHop(f.store, [anchor(a)], f.filter());
    expect(await paths(r.reached.keys())).toEqual(['n1.md', 'n2.md', 'n3.md']);
    expect(r.reached.get(n2)?.marks).toEqual([{ anchorDocid: `#${a}`, direction: 'effect' }]);
    expect(r.reached.get(n1)?.score).toBeCloseTo(0.9 * HOP_DECAY);
    expect(r.report).toBe('ran: 1 anchor(s), 3 hop result(s) (2 cause(s), 1 effect(s))');
    const withInternal = await causalHop(f.store, [anchor(a)], f.filter({ includeInternal: true }));
    expect(await paths(withInternal.reached.keys())).toEqual([
      'n1.md',
      'n2.md',
      'observations/o.md',
    ]);
    const unsnoozed = await causalHop(f.store, [anchor(a)], f.filter({ includeSnoozed: true }));
    expect(await paths(unsnoozed.reached.keys())).toEqual(['n1.md', 'n2.md', 'snoozed.md']);
  });

  it('marks a document reached from two anchors by each, and anchors linked to anchors', async () => {
    const [a, b, shared] = [await doc('a.md'), await doc('b.md'), await doc('shared.md')];
    await edge(shared, a, 1);
    await edge(b, shared, 0.5);
    await edge(a, b, 1);
    const r = await causalHop(f.store, [anchor(a, 0.9), anchor(b, 0.4)], f.filter());
    expect([...r.reached.keys()]).toEqual([shared]);
    expect(r.reached.get(shared)).toEqual({
      score: 0.9 * HOP_DECAY,
      marks: [
        { anchorDocid: `#${a}`, direction: 'cause' },
        { anchorDocid: `#${b}`, direction: 'effect' },
      ],
    });
    expect(r.anchorMarks.get(b)).toEqual([{ anchorDocid: `#${a}`, direction: 'effect' }]);
    expect(r.anchorMarks.get(a)).toEqual([{ anchorDocid: `#${b}`, direction: 'cause' }]);
    expect(r.report).toContain('2 anchor(s) linked to other anchors');
  });

  it('says when the anchors have no eligible causal edges', async () => {
    const a = await doc('a.md');
    const r = await causalHop(f.store, [anchor(a)], f.filter());
    expect(r.reached.size).toBe(0);
    expect(r.report).toBe('ran: no eligible causal edges from the 1 anchor(s)');
    expect((await causalHop(f.store, [], f.filter())).report).toMatch(/^ran: no anchors/);
  });
});
