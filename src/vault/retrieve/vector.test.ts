// The vector channel's degraded marker on a real store: a capped scan spent on one document's
// many fragments comes back short as "cap-truncation"; a scan that saw everything is short with
// no marker.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { NOW, stub, type VaultFixture, vaultFixture } from '../../../test/vault/store-fixture.js';
import { nearestDocs, VECTOR_SCAN_CAP } from './vector.js';

let f: VaultFixture;
beforeEach(async () => {
  f = await vaultFixture();
});
afterEach(() => f.close());

/** A document of `n` fragments, all about queues (one stub direction). */
async function manyFragments(path: string, n: number): Promise<void> {
  const id = await f.add({ path, text: 'queue retry' });
  const fragments = Array.from({ length: n }, (_, i) => ({
    ordinal: i,
    kind: 'paragraph' as const,
    headingPath: '',
    startLine: i + 1,
    endLine: i + 1,
    text: `queue retry ${i}`,
  }));
  await f.store.write((tx) => f.store.vaultIndex.replaceFragments(tx, id, fragments));
  const rows = await f.store.vaultIndex.fragmentsOf(id);
  const vectors = await stub.embed(rows.map((r) => r.text));
  await f.store.write((tx) =>
    f.store.vaultIndex.putVectors(
      tx,
      stub.model,
      rows.map((r, i) => ({ fragmentId: r.id, vector: vectors[i] ?? new Float32Array(2) })),
    ),
  );
}

describe('nearestDocs', () => {
  it('marks a capped scan spent on one document as cap-truncation', async () => {
    await manyFragments('big.md', VECTOR_SCAN_CAP + 50);
    await f.add({ path: 'far.md', text: 'tacos for lunch' });
    const [v] = await stub.embed(['queue retry']);
    const r = await nearestDocs(
      f.store.vaultIndex,
      stub.model,
      v ?? new Float32Array(2),
      f.filter(),
      5,
    );
    expect(r.hits.map((h) => h.documentId)).toHaveLength(1);
    expect(r.degradedReason).toBe('cap-truncation');
  });

  it('marks a capped scan filled by hidden documents as excluded-dominant', async () => {
    // Ten snoozed documents whose fragments fill the store's 4,096-neighbour cap, one live far one.
    for (let i = 0; i < 10; i++) await manyFragments(`hidden-${i}.md`, 420);
    const hidden = await f.store.vaultIndex.listDocuments('default');
    await f.store.write((tx) =>
      f.store.vaultIndex.setSnoozed(
        tx,
        'default',
        hidden.map((d) => d.id),
        NOW + 86_400_000,
      ),
    );
    await f.add({ path: 'live.md', text: 'tacos for lunch' });
    const [v] = await stub.embed(['queue retry']);
    const r = await nearestDocs(
      f.store.vaultIndex,
      stub.model,
      v ?? new Float32Array(2),
      f.filter(),
      5,
    );
    expect(r.hits.length).toBeLessThan(5);
    expect(r.degradedReason).toBe('excluded-dominant');
  }, 60_000);

  it('returns a short list without a marker when the scan saw everything', async () => {
    await f.add({ path: 'a.md', text: 'queue retry' });
    await f.add({ path: 'b.md', text: 'tacos' });
    const [v] = await stub.embed(['queue']);
    const r = await nearestDocs(
      f.store.vaultIndex,
      stub.model,
      v ?? new Float32Array(2),
      { ...f.filter(), now: NOW },
      5,
    );
    expect(r.hits).toHaveLength(2);
    expect(r.degradedReason).toBeNull();
  });
});
