// The memory bench: 100k synthetic facts in one database. Save throughput (no embedding), FTS,
// vector, hybrid and browse latency in-process and over HTTP, background embedding with the
// real local model, responsiveness during an embedding backlog, size and peak RSS. Writes
// bench/results/memory.json and the `memory` section of docs/benchmarks.md.
import pino from 'pino';

import { createCore } from '../../src/core/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { machineInfo, writeDocSection, writeResult } from '../lib/report.js';
import { measureBacklog, TASKS_TEAM } from './backlog.js';
import { generateFacts, generateQueries } from './corpus.js';
import { measureEmbedding } from './embedding.js';
import { bulkInsert, createWorkspace } from './fixture.js';
import { buildDatabase } from './load.js';
import { type MemoryReport, renderMemory, targetsFor } from './render.js';
import { measureSaveCost } from './save-ab.js';
import { measureHttp, measureInProcess } from './search.js';

const DEFAULTS = {
  facts: 100_000,
  corpusSeed: 42,
  queries: 300,
  querySeed: 7,
  saveSample: 5000,
  saveWindowMs: 45_000,
  saveAb: 3000,
  warmupCalls: 20,
  searchCalls: 300,
  hybridCalls: 150,
  browseCalls: 200,
  httpSaves: 2000,
  windowMs: 30_000,
  limit: 10,
  embedSample: 3000,
  embedWindowMs: 30_000,
  queryEmbedCalls: 50,
  backlog: 3000,
  backlogTasks: 50,
  backlogWindowMs: 20_000,
  backlogMaxCalls: 5000,
  startTimeoutMs: 90_000,
};

type Config = typeof DEFAULTS;

const quiet = pino({ level: 'silent' });
const log = (line: string): void => void process.stderr.write(`[bench:memory] ${line}\n`);

/** A database of `facts` without vectors and `tasks` board tasks (for the backlog phases). */
async function seedUnembedded(
  path: string,
  facts: Parameters<typeof bulkInsert>[1],
  tasks: number,
): Promise<void> {
  const core = await createCore({ dbPath: path, embedder: null, logger: quiet });
  try {
    await bulkInsert(core.store, facts, Date.now);
    for (let i = 0; i < tasks; i++) {
      await core.board.createTask({ title: `Backlog bench task ${i}`, teamId: TASKS_TEAM });
    }
  } finally {
    await core.close();
  }
}

/** Counts stored vectors per database file, one open store per file (closed by `close`). */
function vectorCounter(): { count(path: string): Promise<number>; close(): Promise<void> } {
  const stores = new Map<string, Store>();
  return {
    async count(path) {
      let store = stores.get(path);
      if (store === undefined) {
        store = await openSqliteStore(path);
        stores.set(path, store);
      }
      const row = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_vectors');
      return row?.n ?? 0;
    },
    close: async () => void (await Promise.all([...stores.values()].map((s) => s.close()))),
  };
}

/**
 * Runs the memory bench end to end. Never fails on a missed target; it reports it. `overrides`
 * shrink it for a quick check (`npm run bench -- memory` uses the defaults).
 */
export async function runMemoryBench(overrides: Partial<Config> = {}): Promise<void> {
  const CONFIG: Config = { ...DEFAULTS, ...overrides };
  const machine = machineInfo();
  const ws = createWorkspace();
  const counter = vectorCounter();
  try {
    log(`generating ${CONFIG.facts} facts and ${CONFIG.queries} queries`);
    const facts = generateFacts(CONFIG.facts + CONFIG.httpSaves, CONFIG.corpusSeed);
    const corpus = facts.slice(0, CONFIG.facts);
    const extra = facts.slice(CONFIG.facts);
    const queries = generateQueries(CONFIG.queries, CONFIG.querySeed);
    const big = ws.path('memory-100k.db');
    const load = await buildDatabase(big, corpus, CONFIG, log);
    log(`save cost of the postings (2 × ${CONFIG.saveAb} saves, alternating)…`);
    const saveAb = await measureSaveCost(ws, corpus.slice(0, CONFIG.saveAb));
    log('searching in-process…');
    const inProcess = await measureInProcess(big, queries, CONFIG);
    log('searching over HTTP…');
    const http = await measureHttp(big, ws.home, queries, extra, CONFIG);
    const backlogTemplate = ws.path('backlog-template.db');
    await seedUnembedded(backlogTemplate, corpus.slice(0, CONFIG.backlog), CONFIG.backlogTasks);
    const sample = ws.path('embed-sample.db');
    await seedUnembedded(sample, corpus.slice(0, CONFIG.embedSample), 0);
    log(`background embedding with the local model (≤ ${CONFIG.embedWindowMs / 1000} s)…`);
    const embedding = await measureEmbedding(sample, queries, CONFIG);
    log(`responsiveness with a ${CONFIG.backlog}-item embedding backlog…`);
    const backlog = await measureBacklog(
      ws.home,
      backlogTemplate,
      CONFIG.backlog,
      queries,
      {
        windowMs: CONFIG.backlogWindowMs,
        maxCalls: CONFIG.backlogMaxCalls,
        startTimeoutMs: CONFIG.startTimeoutMs,
      },
      (path) => counter.count(path),
    );
    const report: MemoryReport = {
      bench: 'memory',
      machine,
      config: { ...CONFIG },
      vectorChannel:
        'synthetic 512-d hashed bag-of-words vectors (model id bench:hashed-bow-512) for all items; queries embedded by the same function',
      load,
      saveAb,
      inProcess,
      http,
      embedding,
      backlog,
      targets: [],
    };
    report.targets = targetsFor(report);
    const markdown = renderMemory(report);
    const path = writeResult('memory', report);
    await writeDocSection('memory', markdown);
    process.stdout.write(`${markdown}\n\nWrote ${path} and docs/benchmarks.md.\n`);
  } finally {
    await counter.close();
    ws.cleanup();
  }
}
