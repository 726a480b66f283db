// The background embedder end to end, with deterministic fake embedders: drain() empties the
// backlog, saves wake it in serving processes, and switching the model id re-embeds everything
// into the new space, with vector search using only the current model's vectors.
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createMemoryServer } from '../../src/mcp/index.js';
import { createEmbedWorker } from '../../src/memory/index.js';
import { pollUntil } from '../concurrency/spawn.js';
import { linkedClient, silentLogger, tempDir, type TempDir } from '../helpers.js';
import {
  hashEmbedder,
  type Item,
  type MemorySession,
  memorySession,
  save,
  search,
  vectorModels,
} from './fixtures.js';

describe('background embedding', () => {
  it('drain() embeds every pending item in batches; pending() is then 0', async () => {
    const embedder = hashEmbedder();
    const s = await memorySession({ embedder });
    try {
      for (let i = 0; i < 40; i++) {
        await save(s.client, { title: `b${i}`, content: `Backlog item ${i} about osprey.` });
      }
      expect(await s.core.embedWorker?.pending()).toBe(40);
      expect(await s.core.embedWorker?.drain()).toBe(40);
      expect(await s.core.embedWorker?.pending()).toBe(0);
      expect(await s.core.embedWorker?.drain()).toBe(0);
      const models = await vectorModels(s.core);
      expect(models.size).toBe(40);
      expect(new Set(models.values())).toEqual(new Set(['test:hash-a']));
      // Batched, and each batch is small.
      expect(embedder.calls.length).toBeGreaterThan(1);
      for (const batch of embedder.calls) expect(batch.length).toBeLessThanOrEqual(16);
    } finally {
      await s.close();
    }
  });

  it('with autoEmbed, a save wakes the worker and the backlog empties on its own', async () => {
    const s = await memorySession({ embedder: hashEmbedder(), autoEmbed: true });
    try {
      const saved: Item[] = [];
      for (let i = 0; i < 20; i++) {
        saved.push(await save(s.client, { title: `w${i}`, content: `Woken item ${i}, heron.` }));
      }
      await pollUntil('the backlog to empty', 30_000, async () =>
        (await s.core.embedWorker?.pending()) === 0 ? true : undefined,
      );
      const found = await search(s.client, { query: 'heron', mode: 'vector', limit: 100 });
      expect(found.results.map((r) => r.id).sort()).toEqual(saved.map((i) => i.id).sort());
    } finally {
      await s.close();
    }
  });

  it('a deduplicated save adds nothing to the backlog', async () => {
    const s = await memorySession({ embedder: hashEmbedder() });
    try {
      await save(s.client, { title: 'd', content: 'Only once, please.' });
      await s.core.embedWorker?.drain();
      await save(s.client, { title: 'd', content: 'Only  once, please.' });
      expect(await s.core.embedWorker?.pending()).toBe(0);
    } finally {
      await s.close();
    }
  });
});

describe('changing the embedding model', () => {
  let dir: TempDir;
  let dbPath: string;
  const open: MemorySession[] = [];

  beforeEach(() => {
    dir = tempDir('cairn-embed-model-');
    dbPath = join(dir.path, 'cairn.db');
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close().catch(() => undefined);
    dir.cleanup();
  });

  /** A session on the shared file; only the last one opened may remove it. */
  async function session(model: string, dims: number, seed: string): Promise<MemorySession> {
    const s = await memorySession({
      dbPath,
      logger: silentLogger,
      embedder: hashEmbedder(model, dims, seed),
    });
    open.push(s);
    return s;
  }

  async function closeLast(): Promise<void> {
    const s = open.pop();
    // tempCore's cleanup removes its own temp dir, not our dbPath: the file survives.
    await s?.close();
  }

  it('re-embeds everything into the new space; vector search uses only current vectors', async () => {
    const a = await session('test:hash-a', 64, 'a');
    const items: Item[] = [];
    for (const [i, scope] of [{}, { scopeTeamId: 't1' }, { scopeTeamId: 't2' }].entries()) {
      for (let j = 0; j < 3; j++) {
        items.push(
          await save(a.client, {
            title: `m${i}${j}`,
            content: `Model switch item ${i}-${j} egret.`,
            ...scope,
          }),
        );
      }
    }
    await a.core.embedWorker?.drain();
    expect(new Set((await vectorModels(a.core)).values())).toEqual(new Set(['test:hash-a']));
    await closeLast();

    // Same dimension, different space: model A's vectors share the vec0 table but never answer.
    const b = await session('test:hash-b', 64, 'b');
    expect(await b.core.embedWorker?.pending()).toBe(items.length);
    const stale = await search(b.client, { query: 'egret', mode: 'vector', limit: 100 });
    expect(stale.degraded).toBeUndefined();
    expect(stale.results).toEqual([]);
    const hybStale = await search(b.client, { query: 'egret', mode: 'hybrid', limit: 100 });
    expect(hybStale.results.length).toBe(3); // the global items, through full text only
    for (const r of hybStale.results) expect(r.ranks.vector).toBeNull();

    // Part-way through a re-embed, vector search sees exactly the re-embedded items.
    const partial = createEmbedWorker({
      store: b.core.store,
      embedder: hashEmbedder('test:hash-b', 64, 'b'),
      batchSize: 2,
      onBatch: () => void partial.stop(),
    });
    expect(await partial.drain()).toBe(2);
    const models = await vectorModels(b.core);
    const reembedded = items.filter((i) => models.get(i.id) === 'test:hash-b').map((i) => i.id);
    expect(reembedded).toHaveLength(2);
    const visible = async (s: MemorySession, args: Record<string, unknown>): Promise<string[]> => {
      const out: string[] = [];
      for (const scopeTeamId of [undefined, 't1', 't2']) {
        const found = await search(s.client, {
          query: 'egret',
          mode: 'vector',
          limit: 100,
          ...(scopeTeamId === undefined ? {} : { scopeTeamId }),
          ...args,
        });
        out.push(...found.results.map((r) => r.id));
      }
      return [...new Set(out)].sort();
    };
    expect(await visible(b, {})).toEqual([...reembedded].sort());
    expect(await b.core.embedWorker?.pending()).toBe(items.length - 2);

    await b.core.embedWorker?.drain();
    expect(await b.core.embedWorker?.pending()).toBe(0);
    expect(new Set((await vectorModels(b.core)).values())).toEqual(new Set(['test:hash-b']));
    expect(await visible(b, {})).toEqual(items.map((i) => i.id).sort());
    await closeLast();

    // A different dimension too: everything moves again, and search still finds everything.
    const c = await session('test:hash-c', 32, 'c');
    expect(await c.core.embedWorker?.pending()).toBe(items.length);
    expect(await visible(c, {})).toEqual([]);
    await c.core.embedWorker?.drain();
    expect(new Set((await vectorModels(c.core)).values())).toEqual(new Set(['test:hash-c']));
    expect(await visible(c, {})).toEqual(items.map((i) => i.id).sort());
    // The old space's vectors are gone, not just ignored.
    const left = await c.core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_vec_p64');
    expect(left?.n).toBe(0);

    // Scope still holds in the new space.
    const bound = await linkedClient(createMemoryServer(c.core, { scopeTeamId: 't1' }));
    const found = await search(bound, { query: 'egret', mode: 'vector', limit: 100 });
    expect(found.results.map((r) => r.teamId ?? 'global').sort()).toEqual([
      'global',
      'global',
      'global',
      't1',
      't1',
      't1',
    ]);
    await bound.close();
  });
});
