// The local provider with the real model (no mocks): shape, determinism, meaning, laziness.
import { createRequire } from 'node:module';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLocalEmbedder, LOCAL_DIMS, LOCAL_MODEL_ID, type LocalEmbedder } from './local.js';

const dot = (a: Float32Array, b: Float32Array): number =>
  a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
const norm = (v: Float32Array): number => Math.sqrt(dot(v, v));

/** True when this thread has loaded the model runtime (CommonJS cache), i.e. tfjs is in-process. */
const runtimeLoadedHere = (): boolean =>
  Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('@energetic-ai'));

describe('local model', () => {
  let model: LocalEmbedder;
  beforeAll(async () => {
    model = createLocalEmbedder();
    await model.ready();
  });
  afterAll(async () => {
    await model.close();
  });

  it('embeds a batch into 512-d unit vectors', async () => {
    const vectors = await model.embed(['hello world', 'the build is green', 'a', '']);
    expect(model.model).toBe(LOCAL_MODEL_ID);
    expect(model.dims()).toBe(512);
    expect(vectors).toHaveLength(4);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(LOCAL_DIMS);
      expect(norm(v)).toBeCloseTo(1, 4);
      expect(v.byteOffset).toBe(0);
      expect(v.buffer.byteLength).toBe(LOCAL_DIMS * 4);
    }
  });

  it('is deterministic, whatever the batch around a text', async () => {
    const [alone] = await model.embed(['the cat sat on the mat']);
    const [again] = await model.embed(['the cat sat on the mat']);
    const batched = await model.embed(['unrelated words first', 'the cat sat on the mat']);
    expect(Array.from(again ?? [])).toEqual(Array.from(alone ?? []));
    expect(dot(alone!, batched[1]!)).toBeCloseTo(1, 5);
  });

  it('ranks a paraphrase above an unrelated sentence', async () => {
    const [cat, feline, tax] = await model.embed([
      'the cat sat on the mat',
      'a feline rested on the rug',
      'quarterly tax filing deadline',
    ]);
    expect(dot(cat!, feline!)).toBeGreaterThan(dot(cat!, tax!) + 0.1);
  });

  it('splits batches larger than batchSize and keeps order', async () => {
    const small = createLocalEmbedder({ batchSize: 3 });
    try {
      const texts = Array.from({ length: 8 }, (_, i) => `note number ${i} about topic ${i % 3}`);
      const split = await small.embed(texts);
      const whole = await model.embed(texts);
      expect(split).toHaveLength(8);
      split.forEach((v, i) => expect(dot(v, whole[i]!)).toBeCloseTo(1, 5));
    } finally {
      await small.close();
    }
  });

  it('answers [] for no texts', async () => {
    expect(await model.embed([])).toEqual([]);
  });
});

describe('local laziness', () => {
  it('loads nothing until asked, and never into this thread', async () => {
    const embedder = createLocalEmbedder();
    expect(embedder.status()).toBe('idle');
    expect(embedder.isReady()).toBe(false);
    expect(runtimeLoadedHere()).toBe(false);
    await embedder.close();
  });

  it('warm() returns at once; the model loads in the background', async () => {
    const embedder = createLocalEmbedder();
    try {
      embedder.warm();
      expect(embedder.status()).toBe('loading');
      expect(embedder.isReady()).toBe(false);
      embedder.warm(); // idempotent: still one load
      const [v] = await embedder.embed(['now it is warm']);
      expect(v?.length).toBe(512);
      expect(embedder.isReady()).toBe(true);
      expect(runtimeLoadedHere()).toBe(false);
    } finally {
      await embedder.close();
    }
    expect(embedder.status()).toBe('closed');
    expect(embedder.isReady()).toBe(false);
    await expect(embedder.embed(['x'])).rejects.toMatchObject({ reason: 'unavailable' });
    expect(() => embedder.warm()).not.toThrow();
  });
});
