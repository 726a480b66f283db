// Vector and hybrid search with the real local model (loaded once for this file; each test
// uses its own team scope): a semantic match that shares no word with the query ranks first,
// and items not yet embedded are still found by hybrid through full text.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLocalEmbedder, LOCAL_MODEL_ID } from '../../src/embed/index.js';
import { type MemorySession, memorySession, save, search, vectorModels } from './fixtures.js';

const CORPUS: ReadonlyArray<[string, string]> = [
  ['cat', 'The user has a cat named Miso who sleeps on the rug.'],
  ['taxes', 'Quarterly tax filing is due in April; the accountant handles receipts.'],
  ['deploys', 'Production deploys happen on Tuesdays after the release checklist is signed off.'],
  ['office', 'The office coffee machine needs descaling every month.'],
  ['staging', 'Our staging database runs PostgreSQL 16 on a small VM.'],
  ['language', 'The team prefers TypeScript with strict mode for all new services.'],
  ['lunch', 'Alice is allergic to peanuts, so order lunch without nuts.'],
  ['invoices', 'The customer asked for invoices in euros rather than dollars.'],
  ['backups', 'Backups are copied nightly to an offsite bucket and kept for ninety days.'],
  ['ci', 'The CI pipeline fails when the lockfile is out of date.'],
];

/** Queries that share no word (after stemming) with any saved title or content. */
const QUERIES: ReadonlyArray<[string, string]> = [
  ['feline pet', 'cat'],
  ['espresso maker maintenance', 'office'],
  ['food intolerance', 'lunch'],
  ['government revenue forms', 'taxes'],
];

describe('vector and hybrid search with the local model', () => {
  let s: MemorySession;
  let client: Client;

  beforeAll(async () => {
    s = await memorySession({ embedder: createLocalEmbedder() });
    client = s.client;
  }, 120_000);
  afterAll(async () => s.close());

  it('a semantic match sharing no words with the query ranks first', async () => {
    const byTitle = new Map<string, string>();
    for (const [title, content] of CORPUS) {
      byTitle.set(title, (await save(client, { title, content, scopeTeamId: 'sem' })).id);
    }
    expect(await s.core.embedWorker?.pending()).toBeGreaterThanOrEqual(CORPUS.length);
    await s.core.embedWorker?.drain();
    expect(await s.core.embedWorker?.pending()).toBe(0);
    const models = await vectorModels(s.core);
    for (const id of byTitle.values()) expect(models.get(id)).toBe(LOCAL_MODEL_ID);

    for (const [query, title] of QUERIES) {
      const want = byTitle.get(title);
      // No shared words: full text finds nothing.
      expect((await search(client, { query, scopeTeamId: 'sem' })).results, query).toEqual([]);

      const vec = await search(client, { query, mode: 'vector', scopeTeamId: 'sem' });
      expect(vec.degraded, query).toBeUndefined();
      expect(vec.results[0], query).toMatchObject({
        id: want,
        title,
        scoreBasis: 'vector-cosine',
        ranks: { fts: null, vector: 1 },
      });
      expect(vec.results[0]?.score, query).toBeGreaterThan(vec.results[1]?.score ?? -1);

      const hyb = await search(client, { query, mode: 'hybrid', scopeTeamId: 'sem' });
      expect(hyb.degraded, query).toBeUndefined();
      expect(hyb.results[0], query).toMatchObject({ id: want, scoreBasis: 'rrf' });
      expect(hyb.results[0]?.ranks, query).toEqual({ fts: null, vector: 1 });
    }
  });

  it('hybrid finds a fact saved but not yet embedded; vector finds it after drain', async () => {
    const other = await save(client, {
      title: 'garden',
      content: 'The tomatoes in the greenhouse need watering twice a day.',
      scopeTeamId: 'fresh',
    });
    await s.core.embedWorker?.drain();
    const fresh = await save(client, {
      title: 'vehicle',
      content: 'The delivery van is booked for its annual inspection in June.',
      scopeTeamId: 'fresh',
    });
    expect(await s.core.embedWorker?.pending()).toBe(1);

    const before = await search(client, {
      query: 'van inspection',
      mode: 'hybrid',
      scopeTeamId: 'fresh',
    });
    expect(before.degraded).toBeUndefined();
    const hit = before.results.find((r) => r.id === fresh.id);
    expect(hit).toMatchObject({ scoreBasis: 'rrf', ranks: { fts: 1, vector: null } });
    expect(hit?.snippet).toMatch(/van/);
    const vecBefore = await search(client, {
      query: 'automobile checkup',
      mode: 'vector',
      scopeTeamId: 'fresh',
    });
    expect(vecBefore.results.map((r) => r.id)).toEqual([other.id]);

    await s.core.embedWorker?.drain();
    expect(await s.core.embedWorker?.pending()).toBe(0);
    const vecAfter = await search(client, {
      query: 'automobile checkup',
      mode: 'vector',
      scopeTeamId: 'fresh',
    });
    expect(vecAfter.results[0]?.id).toBe(fresh.id);
    const after = await search(client, {
      query: 'van inspection',
      mode: 'hybrid',
      scopeTeamId: 'fresh',
    });
    expect(after.results[0]).toMatchObject({ id: fresh.id, ranks: { fts: 1, vector: 1 } });
  });
});
