// Phase 1 of the memory bench: builds the 100k-fact database. The first and last `sample`
// facts go through memory.save (scrubber, dedup check, one transaction each, no embedder) and
// are timed; the middle is bulk-filled (fixture.ts). Then every item gets a synthetic vector.
import { performance } from 'node:perf_hooks';

import pino from 'pino';

import { createCore } from '../../src/core/index.js';
import { type Measurement, runWindow, type Samples, summarise } from '../lib/measure.js';
import type { Fact } from './corpus.js';
import { createFakeEmbedder } from './fake-embedder.js';
import { bulkInsert, dbBytes, fillVectors } from './fixture.js';

export interface LoadConfig {
  saveSample: number;
  saveWindowMs: number;
}

export interface LoadResult {
  /** memory.save on an empty database (first `saveSample` facts). */
  saveEmpty: Measurement;
  /** memory.save into the nearly full database (last `saveSample` facts). */
  saveFull: Measurement;
  bulkFilled: number;
  bulkSeconds: number;
  items: number;
  vectorsSeconds: number;
  /** Bytes after checkpoint: FTS only (before vectors), and with the synthetic vectors. */
  bytesWithoutVectors: number;
  bytes: { file: number; wal: number };
}

const quiet = pino({ level: 'silent' });

/** Saves `facts` one by one through `save`, in order; bounded by their count and `windowMs`. */
export async function timedSaves(
  save: (f: Fact) => Promise<unknown>,
  facts: readonly Fact[],
  windowMs: number,
): Promise<{ samples: Samples; saved: number }> {
  let next = 0;
  const samples = await runWindow(
    async () => {
      const fact = facts[next++];
      if (fact === undefined) return true;
      await save(fact);
      return true;
    },
    { workers: 1, ms: windowMs, maxCalls: facts.length },
  );
  return { samples, saved: Math.min(next, facts.length) };
}

/** Builds the database at `path` from `facts`; see the file comment. */
export async function buildDatabase(
  path: string,
  facts: readonly Fact[],
  cfg: LoadConfig,
  log: (line: string) => void,
): Promise<LoadResult> {
  const core = await createCore({ dbPath: path, embedder: null, logger: quiet });
  try {
    const save = (f: Fact): Promise<unknown> => core.memory.save(f);
    const head = facts.slice(0, cfg.saveSample);
    const tail = facts.slice(facts.length - cfg.saveSample);
    log(`memory.save × ${head.length} into an empty database…`);
    const first = await timedSaves(save, head, cfg.saveWindowMs);
    const middle = facts.slice(first.saved, facts.length - tail.length);
    log(`bulk fill × ${middle.length}…`);
    let t0 = performance.now();
    await bulkInsert(core.store, middle, Date.now);
    const bulkSeconds = (performance.now() - t0) / 1000;
    log(`memory.save × ${tail.length} into the full database…`);
    const last = await timedSaves(save, tail, cfg.saveWindowMs);
    await core.store.checkpoint();
    const before = dbBytes(path);
    log('synthetic vectors for every item…');
    t0 = performance.now();
    const items = await fillVectors(core.store, createFakeEmbedder());
    const vectorsSeconds = (performance.now() - t0) / 1000;
    await core.store.checkpoint();
    return {
      saveEmpty: summarise(first.samples),
      saveFull: summarise(last.samples),
      bulkFilled: middle.length,
      bulkSeconds: Number(bulkSeconds.toFixed(1)),
      items,
      vectorsSeconds: Number(vectorsSeconds.toFixed(1)),
      bytesWithoutVectors: before.file + before.wal,
      bytes: dbBytes(path),
    };
  } finally {
    await core.close();
  }
}
