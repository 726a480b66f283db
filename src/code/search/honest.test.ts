// Honest answers: an empty index, an index still building (a live job, chunks the postings do
// not hold yet), nothing matched, a filter that removed everything, min_score dropping some or
// all hits, files changed since the index, and the byte budget with its hint.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  openFixture,
  PROVENANCE,
  seedCorpus,
  type Fixture,
} from '../../../test/code/search-fixtures.js';
import { addCollection, addFile } from '../../../test/code-rows.js';
import { createCodeSearch } from './code-search.js';
import type { CodeSearchInput, CodeSearchOptions, CodeSearchResult } from './types.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await openFixture();
});
afterEach(async () => {
  await fx.close();
});

const search = (
  input: CodeSearchInput,
  options: Partial<CodeSearchOptions> = {},
): Promise<CodeSearchResult> =>
  createCodeSearch(fx.store, { embedder: null, ...options }).search(input, PROVENANCE);

async function addJob(collection: number, heartbeatAt: number): Promise<void> {
  await fx.store.write((tx) =>
    tx.run(
      `INSERT INTO code_jobs(id, collection_id, action, state, phase, files_seen, files_total,
         created_at, started_at, heartbeat_at)
       VALUES ('job-1', ?, 'start', 'running', 'chunking', 40, 120, ?, ?, ?)`,
      [collection, heartbeatAt, heartbeatAt, heartbeatAt],
    ),
  );
}

describe('honest answers', () => {
  it('says the index is empty when nothing is indexed, and still records the search', async () => {
    const r = await search({ query: 'cache' });
    expect(r.status).toBe('empty_index');
    expect(r.message).toContain('No code is indexed yet');
    expect(r.results).toEqual([]);
    expect(r.searchId).toBeTypeOf('number');
  });

  it('says which collection has no chunks, and that a job is still filling it', async () => {
    const id = await fx.store.write((tx) => addCollection(tx, 'fresh', { state: 'indexing' }));
    const r = await search({ query: 'cache', collection: 'fresh' });
    expect(r.status).toBe('empty_index');
    expect(r.message).toContain('"fresh" has no chunks (state indexing)');
    await addJob(id, Date.now());
    const later = await search({ query: 'cache', collection: 'fresh' });
    expect(later.building).toBe(true);
    expect(later.message).toContain('"fresh" is being indexed (job job-1, chunking, 40 of 120');
  });

  it('answers with what is searchable while a job runs, and ignores a job that stopped beating', async () => {
    const ids = await seedCorpus(fx);
    await addJob(ids.app, Date.now());
    const r = await search({ query: 'evict', collection: 'app' });
    expect(r.status).toBe('ok');
    expect(r.building).toBe(true);
    expect(r.index[0]).toMatchObject({ collection: 'app', building: true, job: { id: 'job-1' } });
    expect(r.message).toContain('still being built');
    await fx.store.write((tx) =>
      tx.run('UPDATE code_jobs SET heartbeat_at = 1, started_at = 1, created_at = 1'),
    );
    const stale = await search({ query: 'evict', collection: 'app' });
    expect(stale.building).toBe(false);
    expect(stale.message).not.toContain('still being built');
  });

  it('counts chunks the postings do not hold yet as building', async () => {
    const ids = await seedCorpus(fx);
    // Written outside a store write: the postings pick it up later, in the background.
    await addFile(fx.store, ids.app, 'src/late.ts', [
      { symbol: 'lateArrival', text: 'lateArrival()' },
    ]);
    const r = await search({ query: 'evict lateArrival', collection: 'app' });
    expect(r.index[0]?.pendingText).toBeGreaterThan(0);
    expect(r.building).toBe(true);
    expect(r.message).toContain('still being built');
  });

  it('tells nothing matched from a filter that removed every match', async () => {
    await seedCorpus(fx);
    const none = await search({ query: 'zebra giraffe' });
    expect(none.status).toBe('no_match');
    expect(none.message).toContain('Nothing in all 2 indexed collections matches');
    const filtered = await search({ query: 'evict', filters: ['lang:python'] });
    expect(filtered.status).toBe('filtered_out');
    expect(filtered.message).toContain('none passes the extensions and filters');
    const ext = await search({ query: 'evict', extensions: ['go'] });
    expect(ext.status).toBe('filtered_out');
  });

  it('honours min_score: 0 keeps every hit, a high one reports what it dropped', async () => {
    await seedCorpus(fx);
    const q = { query: 'cache key get', collection: 'app', limit: 50 };
    const all = await search({ ...q, minScore: 0 });
    expect(all.results).toHaveLength(all.candidates);
    expect(all.droppedBelowMinScore).toBe(0);
    const best = all.bestScore ?? 0;
    const none = await search({ ...q, minScore: 0.99 });
    expect(best).toBeLessThan(0.99);
    expect(none.status).toBe('below_min_score');
    expect(none.droppedBelowMinScore).toBe(all.candidates);
    expect(none.bestScore).toBe(best);
    expect(none.message).toContain(`All ${all.candidates} candidates scored below min_score 0.99`);
    const scores = all.results.map((h) => h.score);
    const mid = ((scores[0] ?? 0) + (scores.at(-1) ?? 0)) / 2;
    const some = await search({ ...q, minScore: mid });
    expect(some.status).toBe('ok');
    expect(some.results.every((h) => h.score >= mid)).toBe(true);
    expect(some.droppedBelowMinScore).toBe(scores.filter((s) => s < mid).length);
    expect(some.message).toContain('below min_score');
  });

  it("carries the index's age and the files changed or gone since", async () => {
    const indexedAt = Date.now() - 3_600_000;
    await seedCorpus(fx, indexedAt);
    const clean = await search({ query: 'evict', collection: 'app' });
    expect(clean.index[0]).toMatchObject({ indexedAt, freshness: { changed: 0, missing: 0 } });
    expect(clean.index[0]?.ageMs).toBeGreaterThanOrEqual(3_600_000);
    writeFileSync(join(fx.root, 'src/http/server.ts'), 'changed');
    rmSync(join(fx.root, 'lib/users.py'));
    const r = await search({ query: 'evict', collection: 'app' }, { freshnessTtlMs: 0 });
    expect(r.index[0]?.freshness).toMatchObject({ changed: 1, missing: 1, checked: 4, total: 4 });
    expect(r.message).toContain(
      'Since indexing, 1 file changed and 1 file gone in "app" (indexed 60 min ago)',
    );
  });

  it('uses an injected freshness check, reusing its answer within the TTL', async () => {
    await seedCorpus(fx);
    const asked: string[] = [];
    const freshness = (name: string) => {
      asked.push(name);
      return Promise.resolve({ changed: 3, missing: 0, checked: 9 });
    };
    const s = createCodeSearch(fx.store, { embedder: null, freshness, freshnessTtlMs: 60_000 });
    const r = await s.search({ query: 'evict' }, PROVENANCE);
    await s.search({ query: 'cache' }, PROVENANCE);
    expect(asked.sort()).toEqual(['app', 'other']);
    expect(r.index.map((i) => i.freshness?.changed)).toEqual([3, 3]);
  });

  it('keeps the whole answer inside the byte budget and says how to narrow', async () => {
    const ids = await seedCorpus(fx);
    await fx.store.write(async (tx) => {
      const long = `// ${'cache '.repeat(30)}`;
      const chunks = Array.from({ length: 120 }, (_, i) => ({
        symbol: `cacheHelper${i}`,
        text: Array.from({ length: 12 }, () => long).join('\n'),
      }));
      await addFile(tx, ids.app, 'src/many.ts', chunks, { language: 'typescript' });
    });
    const r = await search({ query: 'cache', limit: 100 });
    const size = Buffer.byteLength(JSON.stringify(r), 'utf8');
    expect(size).toBeLessThanOrEqual(48 * 1024);
    expect(r.truncated).toBe(true);
    expect(r.omitted).toBe(100 - r.results.length);
    expect(r.hint).toMatch(/narrow with collection, extensions, filters/);
    expect(r.message).toContain(`Showing ${r.results.length} of 100 results`);
    const small = await search({ query: 'cache', limit: 100 }, { maxBytes: 6000 });
    expect(Buffer.byteLength(JSON.stringify(small), 'utf8')).toBeLessThanOrEqual(6000);
    expect(small.results.length).toBeLessThan(r.results.length);
    const fits = await search({ query: 'evict', limit: 3 });
    expect(fits.truncated).toBe(false);
    expect(fits.hint).toBeNull();
  });
});
