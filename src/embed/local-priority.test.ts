// The local model's priority lane: a query embedding goes ahead of background work waiting in
// the worker, and a background call reaches the model in short slices, so a query waits for one
// slice at most. A fixture model records what it was asked, in order; nothing here is timed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

import { afterEach, describe, expect, it } from 'vitest';

import { createLocalEmbedder, type LocalEmbedder, type LocalEmbedderOptions } from './local.js';

const dirs: string[] = [];
const embedders: LocalEmbedder[] = [];
afterEach(async () => {
  for (const e of embedders.splice(0)) await e.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A model that appends each call's texts (joined by ',') as one line to `calls.txt`, and blocks
 * its thread on a call whose first text starts with "slow" until `go.txt` exists (bounded):
 * meanwhile later calls wait undelivered in the port, as they do behind the real model.
 */
function recordingModel(): {
  modules: NonNullable<LocalEmbedderOptions['modules']>;
  calls(): string[];
  go(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-embed-prio-'));
  dirs.push(dir);
  const calls = join(dir, 'calls.txt');
  const go = join(dir, 'go.txt');
  writeFileSync(calls, '');
  writeFileSync(join(dir, 'weights.cjs'), 'exports.modelSource = async () => ({});');
  writeFileSync(
    join(dir, 'embeddings.cjs'),
    `const fs = require('node:fs');
    exports.initModel = async () => ({ embed: async (texts) => {
      if (texts[0] === 'warm up') return [Array.from({ length: 512 }, () => 1)];
      fs.appendFileSync(${JSON.stringify(calls)}, texts.join(',') + '\\n');
      if (texts[0].startsWith('slow')) {
        // Blocks the worker's thread as a real model does: messages wait in the port meanwhile.
        const until = Date.now() + 10000;
        while (Date.now() < until && !fs.existsSync(${JSON.stringify(go)})) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      }
      return texts.map(() => Array.from({ length: 512 }, () => 1));
    } });`,
  );
  return {
    modules: { embeddings: join(dir, 'embeddings.cjs'), weights: join(dir, 'weights.cjs') },
    calls: () =>
      readFileSync(calls, 'utf8')
        .split('\n')
        .filter((l) => l !== ''),
    go: () => writeFileSync(go, ''),
  };
}

function embedderOn(
  model: ReturnType<typeof recordingModel>,
  backgroundSlice?: number,
): LocalEmbedder {
  const e = createLocalEmbedder({
    modules: model.modules,
    diagnostics: new PassThrough(),
    ...(backgroundSlice === undefined ? {} : { backgroundSlice }),
  });
  embedders.push(e);
  return e;
}

/** Resolves once the model has recorded `n` calls (bounded: 10 s). */
async function calls(model: ReturnType<typeof recordingModel>, n: number): Promise<string[]> {
  for (let i = 0; i < 2000 && model.calls().length < n; i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  return model.calls();
}

describe('local embedder priority lane', () => {
  it('runs a waiting query before waiting background calls; the running one finishes first', async () => {
    const model = recordingModel();
    const embedder = embedderOn(model);
    await embedder.ready();
    const background = [
      embedder.embed(['slow-a'], { priority: 'background' }),
      embedder.embed(['b'], { priority: 'background' }),
      embedder.embed(['c'], { priority: 'background' }),
    ];
    await calls(model, 1);
    const query = embedder.embed(['q']);
    // Let the query's message reach the worker while 'slow-a' still holds the model.
    await new Promise((r) => setTimeout(r, 50));
    model.go();
    await Promise.all([...background, query]);
    expect(model.calls()).toEqual(['slow-a', 'q', 'b', 'c']);
  });

  it('keeps arrival order among calls of one priority (no lane: plain FIFO)', async () => {
    const model = recordingModel();
    const embedder = embedderOn(model);
    await embedder.ready();
    const all = [embedder.embed(['slow-a']), embedder.embed(['b']), embedder.embed(['c'])];
    await calls(model, 1);
    model.go();
    await Promise.all(all);
    expect(model.calls()).toEqual(['slow-a', 'b', 'c']);
  });

  it('sends a background call in slices of backgroundSlice; a query lands between slices', async () => {
    const model = recordingModel();
    const embedder = embedderOn(model, 3);
    await embedder.ready();
    const texts = ['slow-1', '2', '3', '4', '5', '6', '7'];
    const background = embedder.embed(texts, { priority: 'background' });
    await calls(model, 1);
    const query = embedder.embed(['q1', 'q2', 'q3', 'q4']);
    await new Promise((r) => setTimeout(r, 50));
    model.go();
    const [vectors] = await Promise.all([background, query]);
    expect(vectors).toHaveLength(7);
    // Interactive calls use batchSize (16): the query is one call of four texts.
    expect(model.calls()).toEqual(['slow-1,2,3', 'q1,q2,q3,q4', '4,5,6', '7']);
  });

  it('refuses a backgroundSlice that is not a positive integer', () => {
    expect(() => createLocalEmbedder({ backgroundSlice: 0 })).toThrow(/backgroundSlice/);
    expect(() => createLocalEmbedder({ backgroundSlice: 1.5 })).toThrow(/backgroundSlice/);
  });
});
