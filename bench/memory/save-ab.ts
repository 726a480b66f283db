// What the postings cost a save: memory.save into two fresh databases, one as shipped and one
// with the postings triggers dropped (FTS5 only, as before migration 14), alternating blocks
// of the same facts in one run so machine noise hits both sides alike.
import pino from 'pino';

import { type Core, createCore } from '../../src/core/index.js';
import { type Measurement, summarise } from '../lib/measure.js';
import type { Fact } from './corpus.js';
import type { Workspace } from './fixture.js';

export interface SaveAb {
  withPostings: Measurement;
  ftsOnly: Measurement;
}

const BLOCKS = 6;

async function timedBlock(core: Core, facts: readonly Fact[], into: number[]): Promise<void> {
  for (const f of facts) {
    const t0 = performance.now();
    await core.memory.save(f);
    into.push(performance.now() - t0);
  }
}

/** Alternates BLOCKS blocks of saves between the two databases (the same facts on each side). */
export async function measureSaveCost(ws: Workspace, facts: readonly Fact[]): Promise<SaveAb> {
  const quiet = pino({ level: 'silent' });
  const shipped = await createCore({
    dbPath: ws.path('save-ab-postings.db'),
    embedder: null,
    logger: quiet,
  });
  const ftsOnly = await createCore({
    dbPath: ws.path('save-ab-fts.db'),
    embedder: null,
    logger: quiet,
  });
  try {
    for (const t of ['ai', 'ad', 'au'])
      await ftsOnly.store.run(`DROP TRIGGER memory_postings_${t}`);
    const a: number[] = [];
    const b: number[] = [];
    const size = Math.ceil(facts.length / BLOCKS);
    for (let i = 0; i < BLOCKS; i++) {
      const block = facts.slice(i * size, (i + 1) * size);
      if (i % 2 === 0) {
        await timedBlock(shipped, block, a);
        await timedBlock(ftsOnly, block, b);
      } else {
        await timedBlock(ftsOnly, block, b);
        await timedBlock(shipped, block, a);
      }
    }
    const of = (latencies: number[]): Measurement =>
      summarise({ latencies, errors: 0, seconds: latencies.reduce((x, y) => x + y, 0) / 1000 });
    return { withPostings: of(a), ftsOnly: of(b) };
  } finally {
    await shipped.close();
    await ftsOnly.close();
  }
}
