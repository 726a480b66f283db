// The backend comparison of the postgres bench: the tasks bench's cells (list_tasks and
// claim_task through the tasks server) and memory saves / full-text searches through the
// memory service, the same workload on a SQLite file and on a PostgreSQL database, in one run.
import pino from 'pino';

import { createCore } from '../../src/core/index.js';
import { type Measurement, runWindow, summarise } from '../lib/measure.js';
import { generateFacts, generateQueries } from '../memory/corpus.js';
import { timedSaves } from '../memory/load.js';
import { coreDb, type Template, type Workspace } from '../tasks/fixture.js';
import {
  type Cell,
  measureCell,
  type ThroughputConfig,
  type Transport,
} from '../tasks/throughput.js';

export type Backend = 'sqlite' | 'postgres';

/** One tasks cell on one backend (the echo server's figures come along, unused here). */
export interface BackendCell extends Cell {
  backend: Backend;
}

/** Measures every transport × clients cell on `ws`'s backend, each on a copy of `template`. */
export async function measureTasks(
  backend: Backend,
  ws: Workspace,
  template: Template,
  cells: readonly [Transport, number][],
  cfg: ThroughputConfig & { listTasks: number },
  log: (line: string) => void,
): Promise<BackendCell[]> {
  const out: BackendCell[] = [];
  for (const [transport, clients] of cells) {
    const cell = await measureCell(ws, template, cfg.listTasks, transport, clients, cfg);
    log(
      `  ${backend} ${transport} ×${clients}: list_tasks ${cell.listTasks.rate}/s · claim_task ${cell.claimTask.rate}/s`,
    );
    out.push({ backend, ...cell });
  }
  return out;
}

export interface MemoryConfig {
  saves: number;
  searches: number;
  windowMs: number;
}

export interface MemoryResult {
  backend: Backend;
  save: Measurement;
  /** Full-text memory.search on what was saved, or why it was not measured. */
  search: Measurement | { pending: string };
}

const quiet = pino({ level: 'silent' });

/** memory.save × cfg.saves into an empty database, then full-text searches over them. */
export async function measureMemory(
  backend: Backend,
  ws: Workspace,
  cfg: MemoryConfig,
): Promise<MemoryResult> {
  const db = await ws.create('memory');
  const core = await createCore({ ...coreDb(db), embedder: null, logger: quiet });
  try {
    const facts = generateFacts(cfg.saves, 42);
    const saved = await timedSaves((f) => core.memory.save(f), facts, cfg.windowMs);
    const queries = generateQueries(Math.max(1, cfg.searches), 7);
    const search = (i: number) => {
      const q = queries[i % queries.length];
      if (q === undefined) throw new Error('no query');
      return core.memory.search({
        query: q.query,
        mode: 'fts',
        limit: 10,
        scope: { teamId: q.teamId },
      });
    };
    try {
      await search(0);
    } catch (err) {
      // The PostgreSQL search index is a stand-in until its port lands: say so, measure nothing.
      return {
        backend,
        save: summarise(saved.samples),
        search: { pending: (err as Error).message },
      };
    }
    let next = 0;
    const searched = await runWindow(
      async () => {
        await search(next++);
        return true;
      },
      { workers: 1, ms: cfg.windowMs, maxCalls: cfg.searches },
    );
    return { backend, save: summarise(saved.samples), search: summarise(searched) };
  } finally {
    await core.close();
  }
}
