// Chunk embeddings and hybrid search: the backlog counts and drains chunks without a vector
// (a changed chunk waits again; vectors of another embedding text are never searched), a search
// before that answers by BM25 and says why (and wakes the backlog), after it fuses (z-score
// `fused` by default, CODE_FUSION, its top reranked; rrf when asked), vectors alone answer a
// query no chunk holds a term of, and the real local model drains and fuses too.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  openFixture,
  PROVENANCE,
  seedCorpus,
  stubEmbedder,
  type Fixture,
} from '../../../test/code/search-fixtures.js';
import { addFile } from '../../../test/code-rows.js';
import { createLocalEmbedder } from '../../embed/index.js';
import { createCodeSearch } from './code-search.js';
import { chunkEmbeddings, createCodeEmbedWorker, pendingChunkVectors } from './embed-backlog.js';
import { DEFAULT_CODE_EMBED_TEXT } from './embed-text.js';
import type { CodeEmbedder } from './types.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await openFixture();
});
afterEach(async () => {
  await fx.close();
});

describe('chunk embedding backlog', () => {
  it('counts and drains chunks without a vector, in batches, per collection too', async () => {
    const ids = await seedCorpus(fx);
    const embedder = stubEmbedder();
    const batches: number[] = [];
    const worker = createCodeEmbedWorker({
      store: fx.store,
      embedder,
      batchSize: 4,
      onBatch: (n) => batches.push(n),
    });
    expect(await worker.pending()).toBe(10);
    expect(await pendingChunkVectors(fx.store, embedder.model, [ids.other])).toBe(1);
    expect(await chunkEmbeddings(fx.store, embedder.model, 'app')).toEqual({
      model: 'stub:3#code-text-2',
      chunks: 9,
      embedded: 0,
      pending: 9,
    });
    expect(await worker.drain()).toBe(10);
    expect(batches).toEqual([4, 4, 2]);
    expect(await chunkEmbeddings(fx.store, embedder.model, 'app')).toMatchObject({
      embedded: 9,
      pending: 0,
    });
    expect(await chunkEmbeddings(fx.store, 'other:model', 'app')).toMatchObject({ embedded: 0 });
    expect(await chunkEmbeddings(fx.store, embedder.model, 'nope')).toMatchObject({ chunks: 0 });
    expect(await worker.pending()).toBe(0);
    const models = await fx.store.all<{ model: string }>('SELECT model FROM code_vectors');
    expect(models).toHaveLength(10);
    expect(new Set(models.map((m) => m.model))).toEqual(new Set(['stub:3#code-text-2']));
    // codeEmbeddingText: the name in words and the docstring's lead; without prose, the
    // signature in words and the code.
    const texts = embedder.calls.flat();
    expect(texts).toContain('lru cache get. Reads a key and marks it recently used.');
    expect(texts).toContainEqual(
      expect.stringMatching(/^start server\nexport function start server port number server\n/),
    );
    // A chunk changed in place loses its vector and waits again; a wake looks only past the
    // last pass, a rescan from the start.
    await fx.store.write((tx) =>
      tx.run("UPDATE code_chunks SET text = text || ' ' WHERE symbol = 'startServer'"),
    );
    expect(await worker.pending()).toBe(1);
    worker.wake();
    await new Promise((r) => setTimeout(r, 50));
    expect(await worker.pending()).toBe(1);
    worker.rescan();
    await expect.poll(() => worker.pending()).toBe(0);
    // New chunks (the indexer replaces a changed file's chunks) are found by a wake.
    await addFile(fx.store, ids.app, 'src/new.ts', [{ symbol: 'fresh', text: 'fresh()' }]);
    worker.wake();
    await expect.poll(() => worker.pending()).toBe(0);
    await worker.stop();
  });
});

describe('hybrid code search', () => {
  it('answers by BM25 until chunks have vectors, says why, and wakes the backlog', async () => {
    await seedCorpus(fx);
    let woken = 0;
    const s = createCodeSearch(fx.store, {
      embedder: stubEmbedder(),
      onVectorsPending: () => woken++,
    });
    const r = await s.search({ query: 'evict cache' }, PROVENANCE);
    expect(r.mode).toBe('fts');
    expect(r.scoreBasis).toBe('fts-bm25');
    expect(r.degraded).toBe(true);
    expect(r.degradedReason).toContain('no chunk of the searched collections has a vector');
    expect(r.index[0]?.vectors).toEqual({
      model: 'stub:3#code-text-2',
      embedded: 0,
      pending: 9,
    });
    expect(woken).toBe(1);
  });

  it('fuses full text with vectors once the backlog drained (z-score by default, rrf when asked)', async () => {
    await seedCorpus(fx);
    const embedder = stubEmbedder();
    await createCodeEmbedWorker({ store: fx.store, embedder }).drain();
    let woken = 0;
    const s = createCodeSearch(fx.store, { embedder, onVectorsPending: () => woken++ });
    const r = await s.search({ query: 'evict cache', collection: 'app' }, PROVENANCE);
    expect(r.mode).toBe('hybrid');
    expect(r.degraded).toBe(false);
    expect(r.scoreBasis).toBe('fused');
    expect(r.results.every((h) => h.scoreBasis === 'fused' && h.score > 0 && h.score < 1)).toBe(
      true,
    );
    expect(r.results.some((h) => h.ranks.fts !== null && h.ranks.vector !== null)).toBe(true);
    // The reranker reorders the fused top (CODE_RERANK): scores never rise down the list.
    expect(r.results.every((h, i) => i === 0 || (r.results[i - 1]?.score ?? 0) >= h.score)).toBe(
      true,
    );
    expect(r.results.length).toBeGreaterThan(1);
    expect(r.index[0]?.vectors).toEqual({
      model: 'stub:3#code-text-2',
      embedded: 9,
      pending: 0,
    });
    expect(woken).toBe(0);
    const rrf = { method: 'rrf', k: 5, ftsWeight: 1, vectorWeight: 0.25 } as const;
    const q = await createCodeSearch(fx.store, { embedder, fusion: rrf }).search(
      { query: 'evict cache', collection: 'app' },
      PROVENANCE,
    );
    expect(q.scoreBasis).toBe('rrf');
    // Vector-only candidates rank below every text match with the low vector weight.
    const firstVectorOnly = q.results.findIndex((h) => h.ranks.fts === null);
    if (firstVectorOnly >= 0) {
      expect(q.results.slice(firstVectorOnly).every((h) => h.ranks.fts === null)).toBe(true);
    }
    // The score is the RRF sum over its maximum (first in both lists): k 5, weights 1 and 0.25.
    for (const h of q.results) {
      const part = (w: number, rank: number | null) => (rank === null ? 0 : w / (5 + rank));
      expect(h.score).toBeCloseTo(
        (part(1, h.ranks.fts) + part(0.25, h.ranks.vector)) / (1.25 / 6),
        10,
      );
    }
  });

  it('never searches vectors of an older embedding text: they wait to be embedded again', async () => {
    await seedCorpus(fx);
    const embedder = stubEmbedder();
    // Vectors as the old default text stored them: under the bare model name.
    const chunks = await fx.store.all<{ id: number }>('SELECT id FROM code_chunks ORDER BY id');
    const [old] = await embedder.embed(['the old text']);
    await fx.store.write((tx) =>
      fx.store.codeIndex.putVectors(
        tx,
        embedder.model,
        chunks.map((c) => ({ chunkId: c.id, vector: old ?? new Float32Array(3) })),
      ),
    );
    const s = createCodeSearch(fx.store, { embedder });
    const before = await s.search({ query: 'evict cache', collection: 'app' }, PROVENANCE);
    expect(before.mode).toBe('fts');
    expect(before.index[0]?.vectors).toMatchObject({ embedded: 0, pending: 9 });
    const worker = createCodeEmbedWorker({ store: fx.store, embedder });
    expect(await worker.pending()).toBe(10);
    expect(await worker.drain()).toBe(10);
    const keys = await fx.store.all<{ model: string }>('SELECT DISTINCT model FROM code_vectors');
    expect(keys).toEqual([{ model: 'stub:3#code-text-2' }]);
    const after = await s.search({ query: 'evict cache', collection: 'app' }, PROVENANCE);
    expect(after.mode).toBe('hybrid');
    // A new text version makes every chunk wait again; the current ones are not touched.
    const next = { ...DEFAULT_CODE_EMBED_TEXT, version: 'code-text-3' };
    expect(await pendingChunkVectors(fx.store, embedder.model, undefined, next)).toBe(10);
    const v3 = await createCodeSearch(fx.store, { embedder, embedText: next }).search(
      { query: 'evict cache', collection: 'app' },
      PROVENANCE,
    );
    expect(v3.mode).toBe('fts');
    expect(await pendingChunkVectors(fx.store, embedder.model)).toBe(0);
  });

  it('answers by vectors alone, and says so, when no chunk holds a query term', async () => {
    await seedCorpus(fx);
    const embedder = stubEmbedder();
    await createCodeEmbedWorker({ store: fx.store, embedder }).drain();
    const s = createCodeSearch(fx.store, { embedder });
    const r = await s.search({ query: 'sports zzqx', collection: 'app', limit: 3 }, PROVENANCE);
    expect(r.textMatches).toBe(0);
    expect(r.scoreBasis).toBe('vector-cosine');
    expect(r.results[0]?.path).toBe('src/http/server.ts');
    expect(r.results[0]?.score).toBeGreaterThan(0.9);
    expect(r.message).toContain('No chunk holds a query term');
    // Halfway between two topics, no chunk is that close.
    const q = { query: 'sports superuser zzqx', collection: 'app', minScore: 0.95 };
    const strict = await s.search(q, PROVENANCE);
    expect(strict.status).toBe('below_min_score');
    expect(strict.bestScore).toBeLessThan(0.95);
    expect(strict.message).toContain('on the vector-cosine scale');
  });

  it('does not wait for a model that is loading, nor fail with one that breaks', async () => {
    await seedCorpus(fx);
    const stub = stubEmbedder();
    await createCodeEmbedWorker({ store: fx.store, embedder: stub }).drain();
    let warmed = 0;
    const loading: CodeEmbedder = { ...stub, isReady: () => false, warm: () => void warmed++ };
    const r = await createCodeSearch(fx.store, { embedder: loading }).search(
      { query: 'evict' },
      PROVENANCE,
    );
    expect(r.degradedReason).toContain('still loading');
    expect(warmed).toBe(1);
    expect(r.results[0]?.symbol).toBe('LruCache.evict');
    const broken: CodeEmbedder = { ...stub, embed: () => Promise.reject(new Error('boom')) };
    const b = await createCodeSearch(fx.store, { embedder: broken }).search(
      { query: 'evict' },
      PROVENANCE,
    );
    expect(b.degradedReason).toContain('could not embed the query');
    expect(b.status).toBe('ok');
  });

  it('drains with the real local model, then fuses', async () => {
    await seedCorpus(fx);
    const embedder = createLocalEmbedder();
    try {
      const worker = createCodeEmbedWorker({ store: fx.store, embedder });
      expect(await worker.drain()).toBe(10);
      const r = await createCodeSearch(fx.store, { embedder }).search(
        { query: 'load the profile of a user', collection: 'app' },
        PROVENANCE,
      );
      expect(r.mode).toBe('hybrid');
      expect(r.scoreBasis).toBe('fused');
      expect(r.results[0]?.symbol).toBe('load_user_profile');
      expect(r.results[0]?.ranks.vector).not.toBeNull();
    } finally {
      await embedder.close();
    }
  });
});
