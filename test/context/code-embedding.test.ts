// The core's chunk embedding backlog: CAIRN_EMBEDDINGS=none leaves it out (and search says
// vectors did not take part); in a serving core a search that sees chunks without vectors wakes
// it, it drains on its own, and later searches fuse; an index job's progress wakes it too, and
// index_status shows how many chunks have a vector.
import { afterEach, describe, expect, it } from 'vitest';

import { createContextServer } from '../../src/mcp/index.js';
import { PROVENANCE, stubEmbedder } from '../code/search-fixtures.js';
import { addCollection, addFile } from '../code-rows.js';
import { linkedClient, tempCore } from '../helpers.js';
import { callContext, contextCore, makeProject } from './fixtures.js';

const saved = process.env['CAIRN_EMBEDDINGS'];
afterEach(() => {
  if (saved === undefined) delete process.env['CAIRN_EMBEDDINGS'];
  else process.env['CAIRN_EMBEDDINGS'] = saved;
});

const chunks = [
  { symbol: 'LruCache.evict', text: 'evict(): void { this.map.delete(oldest) } // cache' },
  { symbol: 'startServer', text: 'function startServer(port) { listen(port) }' },
];

describe('Core.codeEmbedWorker', () => {
  it('is absent with CAIRN_EMBEDDINGS=none, and search says why vectors did not help', async () => {
    process.env['CAIRN_EMBEDDINGS'] = 'none';
    const t = await tempCore();
    try {
      expect(t.core.embedder).toBeNull();
      expect(t.core.codeEmbedWorker).toBeNull();
      await t.core.store.write(async (tx) =>
        addFile(tx, await addCollection(tx, 'c'), 'a.ts', chunks),
      );
      const r = await t.core.codeSearch.search({ query: 'evict cache' }, PROVENANCE);
      expect(r.status).toBe('ok');
      expect(r.degradedReason).toContain('CAIRN_EMBEDDINGS=none');
    } finally {
      await t.close();
    }
  });

  it('in a serving core, a search wakes the backlog, which drains; the next search fuses', async () => {
    const t = await tempCore({
      embedder: { ...stubEmbedder(), dims: () => 3, close: () => Promise.resolve() },
      autoEmbed: true,
    });
    try {
      await t.core.store.write(async (tx) =>
        addFile(tx, await addCollection(tx, 'c'), 'a.ts', chunks),
      );
      const first = await t.core.codeSearch.search({ query: 'evict cache' }, PROVENANCE);
      expect(first.mode).toBe('fts');
      await expect.poll(() => t.core.codeEmbedWorker?.pending()).toBe(0);
      const next = await t.core.codeSearch.search({ query: 'evict cache' }, PROVENANCE);
      expect(next.mode).toBe('hybrid');
      expect(next.scoreBasis).toBe('fused');
    } finally {
      await t.close();
    }
  });

  it('an index job wakes it as chunks are written; index_status shows the embeddings', async () => {
    const project = makeProject();
    const embedder = { ...stubEmbedder(), dims: () => 3, close: () => Promise.resolve() };
    const t = await contextCore(project, undefined, { embedder, autoEmbed: true });
    const client = await linkedClient(createContextServer(t.core));
    try {
      await callContext(client, 'index_repo', { path: project.root, collection: 'demo' });
      await expect.poll(() => t.core.codeEmbedWorker?.pending(), { timeout: 10_000 }).toBe(0);
      const status = await callContext<{
        collections: { chunks: number; embeddings: { embedded: number; pending: number } }[];
      }>(client, 'index_status', { collection: 'demo' });
      const entry = status.data.collections[0];
      expect(entry?.embeddings).toMatchObject({ model: 'stub:3#code-text-2', pending: 0 });
      expect(entry?.embeddings.embedded).toBe(entry?.chunks);
      expect(status.text).toContain(
        `Embeddings (stub:3#code-text-2): ${entry?.chunks} of ${entry?.chunks} chunks.`,
      );
    } finally {
      await client.close();
      await t.close();
      project.dir.cleanup();
    }
  });
});
