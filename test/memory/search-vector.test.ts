// memory_search's vector and hybrid modes through a real SDK client, with a deterministic fake
// embedder: cosine scores and ranks, fusion, limits, and items not embedded yet. The real local
// model has its own file (semantic.test.ts); full text is in search.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { hashEmbedder, type MemorySession, memorySession, save, search } from './fixtures.js';

describe('memory_search: vector and hybrid (fake embedder)', () => {
  let s: MemorySession;
  beforeEach(async () => {
    s = await memorySession({ embedder: hashEmbedder() });
  });
  afterEach(async () => s.close());

  it('vector results carry cosine scores and vector ranks; hybrid fuses both ranks', async () => {
    const a = await save(s.client, { title: 'x', content: 'orange lemon lime grapefruit' });
    const b = await save(s.client, { title: 'y', content: 'walnut almond pecan cashew' });
    await s.core.embedWorker?.drain();

    const vec = await search(s.client, { query: 'lemon lime grapefruit', mode: 'vector' });
    expect(vec.mode).toBe('vector');
    expect(vec.degraded).toBeUndefined();
    expect(vec.results[0]).toMatchObject({
      id: a.id,
      scoreBasis: 'vector-cosine',
      ranks: { fts: null, vector: 1 },
      title: 'x',
    });
    expect(vec.results[0]?.snippet).toContain('grapefruit');
    for (const [i, r] of vec.results.entries()) {
      expect(r.ranks).toEqual({ fts: null, vector: i + 1 });
      expect(r.score).toBeGreaterThanOrEqual(-1);
      expect(r.score).toBeLessThanOrEqual(1.0001);
    }
    const scores = vec.results.map((r) => r.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);

    const hyb = await search(s.client, { query: 'grapefruit', mode: 'hybrid' });
    expect(hyb.mode).toBe('hybrid');
    expect(hyb.results[0]).toMatchObject({ id: a.id, scoreBasis: 'rrf' });
    expect(hyb.results[0]?.ranks.fts).toBe(1);
    expect(hyb.results[0]?.ranks.vector).toEqual(expect.any(Number));
    expect(hyb.results[0]?.snippet).toMatch(/grapefruit/);
    // b matches only through the vector channel (every item has a vector).
    const onlyVec = hyb.results.find((r) => r.id === b.id);
    expect(onlyVec?.ranks.fts ?? null).toBeNull();
  });

  it('vector and hybrid respect limit', async () => {
    for (let i = 0; i < 8; i++) {
      await save(s.client, { title: `n${i}`, content: `fjord number ${i} of eight` });
    }
    await s.core.embedWorker?.drain();
    for (const mode of ['vector', 'hybrid']) {
      expect((await search(s.client, { query: 'fjord', mode, limit: 3 })).results).toHaveLength(3);
      expect((await search(s.client, { query: 'fjord', mode, limit: 100 })).results).toHaveLength(
        8,
      );
    }
  });

  it('hybrid finds items saved but not yet embedded (through full text) before drain', async () => {
    const old = await save(s.client, { title: 'old', content: 'Seasoned item about parsnips.' });
    await s.core.embedWorker?.drain();
    const fresh = await save(s.client, {
      title: 'fresh',
      content: 'Brand new note about kohlrabi and parsnips.',
    });
    expect(await s.core.embedWorker?.pending()).toBe(1);

    const hyb = await search(s.client, { query: 'kohlrabi', mode: 'hybrid' });
    expect(hyb.degraded).toBeUndefined();
    const hit = hyb.results.find((r) => r.id === fresh.id);
    expect(hit).toMatchObject({ scoreBasis: 'rrf', ranks: { fts: 1, vector: null } });
    expect(hit?.snippet).toMatch(/kohlrabi/);
    const vecBefore = await search(s.client, { query: 'kohlrabi', mode: 'vector' });
    expect(vecBefore.results.map((r) => r.id)).not.toContain(fresh.id);
    expect(vecBefore.results.map((r) => r.id)).toContain(old.id);

    await s.core.embedWorker?.drain();
    expect(await s.core.embedWorker?.pending()).toBe(0);
    const vecAfter = await search(s.client, { query: 'kohlrabi', mode: 'vector' });
    expect(vecAfter.results[0]?.id).toBe(fresh.id);
    const hybAfter = await search(s.client, { query: 'kohlrabi', mode: 'hybrid' });
    expect(hybAfter.results[0]).toMatchObject({ id: fresh.id, ranks: { fts: 1, vector: 1 } });
  });
});
