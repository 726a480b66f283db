// Background embedding with the real local model on a bounded sample: the embed worker (batches
// of 16, as `cairn serve` runs it) drains a backlog for a fixed time; items/s is what it
// finished. Then the latency of embedding one query, the model's share of a hybrid search.
import { performance } from 'node:perf_hooks';

import pino from 'pino';

import { createCore } from '../../src/core/index.js';
import { createLocalEmbedder } from '../../src/embed/index.js';
import { type Measurement, runWindow, summarise } from '../lib/measure.js';
import type { Query } from './corpus.js';

export interface EmbeddingConfig {
  embedWindowMs: number;
  queryEmbedCalls: number;
}

export interface EmbeddingResult {
  model: string;
  loadSeconds: number;
  backlog: number;
  embedded: number;
  seconds: number;
  itemsPerSecond: number;
  /** Embedding one query string (the model's part of a hybrid search). */
  queryEmbed: Measurement;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Measures on `path` (a database of unembedded facts, modified: vectors are added). */
export async function measureEmbedding(
  path: string,
  queries: readonly Query[],
  cfg: EmbeddingConfig,
): Promise<EmbeddingResult> {
  const embedder = createLocalEmbedder();
  const core = await createCore({ dbPath: path, embedder, logger: pino({ level: 'silent' }) });
  try {
    const worker = core.embedWorker;
    if (worker === null) throw new Error('no embed worker');
    let t0 = performance.now();
    await embedder.ready();
    const loadSeconds = (performance.now() - t0) / 1000;
    const backlog = await worker.pending();
    t0 = performance.now();
    worker.wake();
    let left = backlog;
    while (left > 0 && performance.now() - t0 < cfg.embedWindowMs) {
      await sleep(250);
      left = await worker.pending();
    }
    await worker.stop();
    const seconds = (performance.now() - t0) / 1000;
    const embedded = backlog - (await worker.pending());
    let next = 0;
    const samples = await runWindow(
      async () => {
        const q = queries[next++ % queries.length];
        return (await embedder.embed([q?.query ?? 'query'])).length === 1;
      },
      { workers: 1, ms: 20_000, maxCalls: cfg.queryEmbedCalls },
    );
    return {
      model: embedder.model,
      loadSeconds: Number(loadSeconds.toFixed(1)),
      backlog,
      embedded,
      seconds: Number(seconds.toFixed(1)),
      itemsPerSecond: Number((embedded / seconds).toFixed(1)),
      queryEmbed: summarise(samples),
    };
  } finally {
    await core.close();
  }
}
