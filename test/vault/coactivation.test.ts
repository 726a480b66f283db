// Co-activation through real SDK clients on a real store: documents one connection reads
// together pair once (re-reading forms no new pair), another connection's reads count again,
// multi_get pairs what it returns, a read older than the window pairs with nothing, and
// memory_rank's coActivation multiplier grows only for the documents that were read together.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createVaultServer } from '../../src/mcp/index.js';
import { CO_ACCESS_WINDOW_MS } from '../../src/vault/index.js';
import { linkedClient } from '../helpers.js';
import { callVault, vaultSetup, type VaultSetup } from './fixtures.js';

const QUEUE = 'decisions/queue.md';
const BACKOFF = 'research/backoff.md';
const LUNCH = 'notes/lunch.md';
const HANDOFF = 'handoffs/2026-11-30.md';

let now = Date.parse('2026-12-01T10:00:00Z');
let s: VaultSetup;
beforeEach(async () => {
  now = Date.parse('2026-12-01T10:00:00Z');
  s = await vaultSetup({ clock: () => now });
  await s.sync();
});
afterEach(() => s.close());

type Rank = { items: { path: string; breakdown: { multipliers: Record<string, number> } }[] };

/** memory_rank's coActivation multiplier per path for a query that finds the queue notes. */
async function multipliers(): Promise<Map<string, number>> {
  const r = await callVault<Rank>(s.client, 'memory_rank', { query: 'queue retries backoff' });
  return new Map(r.data.items.map((i) => [i.path, i.breakdown.multipliers['coActivation'] ?? 0]));
}

describe('co-activation', () => {
  it('starts at 1 for every candidate: nothing was read together', async () => {
    const m = await multipliers();
    expect(m.size).toBeGreaterThan(1);
    for (const v of m.values()) expect(v).toBe(1);
  });

  it('pairs documents one connection reads, once, and counts another connection again', async () => {
    await callVault(s.client, 'get', { file: QUEUE });
    await callVault(s.client, 'get', { file: BACKOFF });
    await callVault(s.client, 'get', { file: QUEUE });
    await callVault(s.client, 'get', { file: BACKOFF });
    let m = await multipliers();
    expect(m.get(QUEUE)).toBeCloseTo(1.015, 12);
    expect(m.get(BACKOFF)).toBeCloseTo(1.015, 12);

    const other = await linkedClient(createVaultServer(s.core));
    try {
      await callVault(other, 'get', { file: BACKOFF });
      await callVault(other, 'get', { file: QUEUE });
    } finally {
      await other.close();
    }
    m = await multipliers();
    expect(m.get(QUEUE)).toBeCloseTo(1.03, 12);
    expect(m.get(BACKOFF)).toBeCloseTo(1.03, 12);
  });

  it('a pair with a document outside the query does not lift it', async () => {
    await callVault(s.client, 'get', { file: QUEUE });
    await callVault(s.client, 'get', { file: LUNCH });
    const m = await multipliers();
    expect(m.has(LUNCH)).toBe(false);
    expect(m.get(QUEUE)).toBe(1);
  });

  it('multi_get pairs every document it returns', async () => {
    await callVault(s.client, 'multi_get', { pattern: `${QUEUE},${BACKOFF},${HANDOFF}` });
    const idx = s.core.store.vaultIndex;
    const docs = await callVault<{ documents: { document: { id: number; path: string } }[] }>(
      s.client,
      'multi_get',
      { pattern: `${QUEUE},${BACKOFF},${HANDOFF}` },
    );
    const id = new Map(docs.data.documents.map((d) => [d.document.path, d.document.id]));
    const co = await idx.coActivations('default', [...id.values()]);
    // Three documents, three pairs, each counted once (the second multi_get re-read the set).
    for (const v of co.values()) expect(v).toBe(2);
    expect((await multipliers()).get(QUEUE)).toBeCloseTo(1.015, 12);
  });

  it('a read older than the window pairs with nothing', async () => {
    await callVault(s.client, 'get', { file: QUEUE });
    now += CO_ACCESS_WINDOW_MS + 1;
    await callVault(s.client, 'get', { file: BACKOFF });
    const m = await multipliers();
    expect(m.get(QUEUE)).toBe(1);
    expect(m.get(BACKOFF)).toBe(1);
  });

  it('keeps vaults apart', async () => {
    await callVault(s.client, 'get', { file: QUEUE });
    await callVault(s.client, 'get', { file: BACKOFF });
    const idx = s.core.store.vaultIndex;
    const r = await callVault<{ document: { id: number } }>(s.client, 'get', { file: QUEUE });
    const b = await callVault<{ document: { id: number } }>(s.client, 'get', { file: BACKOFF });
    const ids2 = [r.data.document.id, b.data.document.id];
    expect([...(await idx.coActivations('default', ids2)).values()]).toEqual([1, 1]);
    expect([...(await idx.coActivations('other', ids2)).values()]).toEqual([0, 0]);
  });
});
