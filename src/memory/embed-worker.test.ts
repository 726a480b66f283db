// The background embedder over a real SQLite file with stub embedders: batching, truncation,
// wake coalescing, model switches, deleted items, stop(), and failures that must surface
// instead of spinning.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openSqliteStore, type SqlValue, type Store } from '../store/index.js';
import { createEmbedWorker } from './embed-worker.js';
import { createMemory, type Memory } from './memory.js';
import type { MemoryEmbedder, MemoryScrubber } from './model.js';

/** No secrets in these tests: the scrubber passes text through. */
const passThrough: MemoryScrubber = {
  scrub: (text) => Promise.resolve({ text, onlySentinels: false, findings: [] }),
};

interface StubEmbedder extends MemoryEmbedder {
  batches: string[][];
  /** The priority each call asked for (undefined: none given). */
  priorities: (string | undefined)[];
}

/** Vectors from letter counts: cheap, deterministic, 8 dimensions. */
function stubEmbedder(model: string, fail?: () => Error | undefined): StubEmbedder {
  const batches: string[][] = [];
  const priorities: (string | undefined)[] = [];
  return {
    model,
    batches,
    priorities,
    warm: () => undefined,
    isReady: () => true,
    embed(texts, call) {
      const err = fail?.();
      if (err !== undefined) return Promise.reject(err);
      batches.push([...texts]);
      priorities.push(call?.priority);
      return Promise.resolve(
        texts.map((t) => {
          const v = new Float32Array(8);
          for (const ch of t.toLowerCase())
            v[ch.charCodeAt(0) % 8] = (v[ch.charCodeAt(0) % 8] ?? 0) + 1;
          const norm = Math.hypot(...v) || 1;
          return v.map((x) => x / norm);
        }),
      );
    },
  };
}

/** Resolves with the promise's value, or 'timeout' after `ms`. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<'timeout'>((r) => {
        timer = setTimeout(() => r('timeout'), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('createEmbedWorker', () => {
  let dir: string;
  let store: Store;
  let memory: Memory;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-embed-worker-'));
    store = await openSqliteStore(join(dir, 'cairn.db'));
    memory = createMemory(store, { scrubber: passThrough });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const saveFacts = async (n: number, prefix = 'fact'): Promise<void> => {
    for (let i = 0; i < n; i++) {
      await memory.save({ title: `${prefix} ${i}`, content: `${prefix} body ${i}`, scope: {} });
    }
  };
  const vectorModels = async (): Promise<string[]> =>
    (
      await store.all<{ model: string }>('SELECT model FROM memory_vectors ORDER BY item_rowid')
    ).map((r) => r.model);

  it('drains in batches of batchSize and reports how many it embedded', async () => {
    await saveFacts(7);
    const embedder = stubEmbedder('stub:a');
    const batches: number[] = [];
    const worker = createEmbedWorker({
      store,
      embedder,
      batchSize: 3,
      onBatch: (n) => batches.push(n),
    });
    expect(await worker.pending()).toBe(7);
    expect(await worker.drain()).toBe(7);
    expect(await worker.pending()).toBe(0);
    expect(batches).toEqual([3, 3, 1]);
    expect(embedder.batches.map((b) => b.length)).toEqual([3, 3, 1]);
    // Backlog work never competes with queries: every call says so.
    expect(embedder.priorities).toEqual(['background', 'background', 'background']);
    expect(await vectorModels()).toEqual(Array<string>(7).fill('stub:a'));
    expect(await worker.drain()).toBe(0);
  });

  it('rests restRatio × each batch time between background batches, but not while draining', async () => {
    await saveFacts(6);
    const stub = stubEmbedder('stub:a');
    const calls: { start: number; end: number }[] = [];
    const slow: MemoryEmbedder = {
      ...stub,
      async embed(texts) {
        const start = performance.now();
        await new Promise((r) => setTimeout(r, 40));
        const out = await stub.embed(texts);
        calls.push({ start, end: performance.now() });
        return out;
      },
    };
    const worker = createEmbedWorker({ store, embedder: slow, batchSize: 2, restRatio: 1 });
    worker.wake();
    await expect.poll(() => worker.pending(), { timeout: 10_000 }).toBe(0);
    expect(calls).toHaveLength(3);
    // Each rest lasts at least the previous batch's own time (≥ the embedder's 40 ms).
    for (let i = 1; i < calls.length; i++) {
      const gap = (calls[i]?.start ?? 0) - (calls[i - 1]?.end ?? 0);
      expect(gap).toBeGreaterThanOrEqual(35);
    }
    // drain() is someone waiting: a huge ratio must not slow it down.
    await saveFacts(6, 'more');
    const urgent = createEmbedWorker({ store, embedder: slow, batchSize: 2, restRatio: 20 });
    expect(await within(5_000, urgent.drain())).toBe(6);
    // stop() ends a rest at once.
    await saveFacts(4, 'last');
    const resting = createEmbedWorker({ store, embedder: slow, batchSize: 2, restRatio: 20 });
    resting.wake();
    await expect.poll(() => worker.pending(), { timeout: 10_000 }).toBe(2);
    expect(await within(500, resting.stop())).toBeUndefined(); // the rest would be ≥ 800 ms
  });

  it('embeds the title with the content, cut at maxChars', async () => {
    await memory.save({ title: 'Short title', content: 'x'.repeat(500), scope: {} });
    const embedder = stubEmbedder('stub:a');
    await createEmbedWorker({ store, embedder, maxChars: 100 }).drain();
    const [text] = embedder.batches.flat();
    expect(text?.startsWith('Short title\nxxx')).toBe(true);
    expect(text).toHaveLength(100);
  });

  it('wake() starts a pass; saves made during a pass are picked up by it', async () => {
    await saveFacts(5);
    const embedder = stubEmbedder('stub:a');
    let added = false;
    const worker = createEmbedWorker({
      store,
      embedder,
      batchSize: 2,
      onBatch: () => {
        if (added) return;
        added = true;
        void saveFacts(3, 'late').then(() => worker.wake());
      },
    });
    worker.wake();
    worker.wake();
    await worker.drain();
    expect(await worker.pending()).toBe(0);
    expect((await vectorModels()).length).toBe(8);
    // Nothing was embedded twice.
    expect(embedder.batches.flat()).toHaveLength(8);
  });

  it('a later pass scans only after what it already embedded, and still finds new saves', async () => {
    await saveFacts(5);
    const cursors: unknown[] = [];
    const spy: Store = {
      dialect: store.dialect,
      location: store.location,
      locator: store.locator,
      warnings: store.warnings,
      vectorWarnings: store.vectorWarnings,
      memoryIndex: store.memoryIndex,
      vaultIndex: store.vaultIndex,
      graphIndex: store.graphIndex,
      codeIndex: store.codeIndex,
      signals: store.signals,
      locks: store.locks,
      get: (sql, params) => store.get(sql, params),
      run: (sql, params) => store.run(sql, params),
      write: (fn) => store.write(fn),
      read: (fn) => store.read(fn),
      checkpoint: () => store.checkpoint(),
      close: () => Promise.resolve(),
      all: <T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> => {
        if (sql.includes('m.rowid > ?')) cursors.push(params?.[1]);
        return store.all<T>(sql, params);
      },
    };
    const embedder = stubEmbedder('stub:a');
    let batches = 0;
    const worker = createEmbedWorker({
      store: spy,
      embedder,
      batchSize: 10,
      onBatch: () => batches++,
    });
    expect(await worker.drain()).toBe(5);
    await saveFacts(2, 'later');
    worker.wake();
    while (batches < 2) await new Promise((r) => setTimeout(r, 5));
    await worker.stop();
    expect(embedder.batches.map((b) => b.length)).toEqual([5, 2]);
    // The drain scanned from the start; the wake's pass from the fifth item, not from 0 again.
    expect(cursors[0]).toBe(0);
    expect(cursors.slice(2)).not.toContain(0);
    expect(await worker.pending()).toBe(0);
  });

  it('drain() re-embeds items another process gave another model, without spinning', async () => {
    await saveFacts(5);
    const mine = stubEmbedder('stub:a');
    const worker = createEmbedWorker({ store, embedder: mine });
    expect(await worker.drain()).toBe(5);
    expect(await createEmbedWorker({ store, embedder: stubEmbedder('stub:b') }).drain()).toBe(5);
    expect(await within(2000, worker.drain())).toBe(5);
    expect(await vectorModels()).toEqual(Array<string>(5).fill('stub:a'));
  });

  it('a new model re-embeds everything and replaces the old vectors', async () => {
    await saveFacts(4);
    await createEmbedWorker({ store, embedder: stubEmbedder('stub:a') }).drain();
    const b = createEmbedWorker({ store, embedder: stubEmbedder('stub:b') });
    expect(await b.pending()).toBe(4);
    expect(await b.drain()).toBe(4);
    expect(await vectorModels()).toEqual(Array<string>(4).fill('stub:b'));
    const a = createEmbedWorker({ store, embedder: stubEmbedder('stub:a') });
    expect(await a.pending()).toBe(4);
  });

  it('deleted items are not pending', async () => {
    await saveFacts(3);
    await store.write((tx) =>
      tx.run("UPDATE memory_items SET deleted_at = 1 WHERE title = 'fact 1'"),
    );
    const worker = createEmbedWorker({ store, embedder: stubEmbedder('stub:a') });
    expect(await worker.pending()).toBe(2);
    expect(await worker.drain()).toBe(2);
  });

  it('stop() ends the work; later wakes and drains do nothing', async () => {
    await saveFacts(6);
    const worker = createEmbedWorker({ store, embedder: stubEmbedder('stub:a'), batchSize: 2 });
    await worker.stop();
    worker.wake();
    expect(await worker.drain()).toBe(0);
    expect(await worker.pending()).toBe(6);
  });

  it('a failing embedder is reported, and drain() rejects instead of retrying forever', async () => {
    await saveFacts(3);
    const errors: unknown[] = [];
    let failing = true;
    const worker = createEmbedWorker({
      store,
      embedder: stubEmbedder('stub:a', () =>
        failing ? new Error('model unavailable') : undefined,
      ),
      onError: (err) => errors.push(err),
    });
    worker.wake();
    const outcome = await within(
      10_000,
      worker.drain().then(
        (n) => ({ ok: n }),
        (err: unknown) => ({ err }),
      ),
    );
    expect(outcome).toMatchObject({ err: { message: 'model unavailable' } });
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(await worker.pending()).toBe(3);
    // Once the embedder recovers, the next drain finishes the backlog.
    failing = false;
    expect(await worker.drain()).toBe(3);
    expect(await worker.pending()).toBe(0);
  });
});
