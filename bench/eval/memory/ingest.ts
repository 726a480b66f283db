// Ingests LoCoMo conversations through the real memory service: one team scope per
// conversation, every turn saved as a fact, then the background embedder drained. Returns the
// fact-id → dialog-id map the scorer needs and the save / embed wall times.
import { performance } from 'node:perf_hooks';

import type { Core } from '../../../src/core/index.js';
import { createEmbedWorker } from '../../../src/memory/index.js';
import { type ChunkStyle, factText } from './chunk.js';
import type { Conversation } from './data.js';

export interface Ingested {
  /** Fact id → dialog id ("D1:3"), per conversation (sample id). */
  dialogOf: Map<string, string>;
  facts: number;
  deduplicated: number;
  saveMs: number;
  embedMs: number;
  embedded: number;
}

/** The scope a conversation's facts live in, so conversations never see each other. */
export const scopeOf = (sampleId: string): { teamId: string } => ({ teamId: sampleId });

export interface IngestOptions {
  /** Facts per embedding call of the background worker (the product default is 16). */
  embedBatchSize?: number;
  log?: (line: string) => void;
}

/**
 * Saves every turn as a fact, then drains the product's background embedding worker (when the
 * core has an embedder), with a larger batch than the serving default: nothing waits on it here.
 */
export async function ingest(
  core: Core,
  conversations: readonly Conversation[],
  style: ChunkStyle,
  options: IngestOptions = {},
): Promise<Ingested> {
  const log = options.log ?? (() => undefined);
  const dialogOf = new Map<string, string>();
  let facts = 0;
  let deduplicated = 0;
  const saveStart = performance.now();
  for (const c of conversations) {
    let previous: Conversation['turns'][number] | undefined;
    for (const turn of c.turns) {
      const prior = previous?.session === turn.session ? previous : undefined;
      const { title, content } = factText(style, turn, prior);
      const result = await core.memory.save({ title, content, scope: scopeOf(c.sampleId) });
      if (result.saved !== 'fact') throw new Error('expected a fact');
      // Identical text in one conversation is stored once; the first dialog id keeps the fact.
      if (result.deduplicated === true) deduplicated++;
      if (!dialogOf.has(result.fact.id)) dialogOf.set(result.fact.id, turn.diaId);
      facts++;
      previous = turn;
    }
  }
  const saveMs = performance.now() - saveStart;
  log(`saved ${facts} facts (${deduplicated} deduplicated) in ${(saveMs / 1000).toFixed(1)} s`);
  const embedStart = performance.now();
  const worker =
    core.embedder === null
      ? null
      : createEmbedWorker({
          store: core.store,
          embedder: core.embedder,
          batchSize: options.embedBatchSize ?? 16,
        });
  // drain() throws the embedder's error rather than retrying forever.
  const embedded = (await worker?.drain()) ?? 0;
  const embedMs = performance.now() - embedStart;
  if (worker !== null) log(`embedded ${embedded} facts in ${(embedMs / 1000).toFixed(1)} s`);
  return { dialogOf, facts, deduplicated, saveMs, embedMs, embedded };
}
