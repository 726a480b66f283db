// Search and browse latency at 100k, in-process (memory.search / memory.browse on a core with
// the synthetic embedder) and over Streamable HTTP (an SDK client against the bench server
// child, server.ts), with the same queries, scope (one team) and limit 10. Also times
// memory_save over HTTP. One caller at a time: these are latencies, not throughput.
import pino from 'pino';

import { type Core, createCore } from '../../src/core/index.js';
import type { SearchMode } from '../../src/memory/index.js';
import { visibleTo } from '../../src/memory/scope.js';
import { openSqliteStore, type Store, toFtsQuery } from '../../src/store/index.js';
import { callTool, connectHttp, spawnHttpServer } from '../lib/connect.js';
import { type Measurement, runWindow, type Samples, summarise } from '../lib/measure.js';
import { ROOT } from '../lib/report.js';
import type { Fact, Query } from './corpus.js';
import { createFakeEmbedder } from './fake-embedder.js';
import { readRss, type Rss } from './rss.js';

export interface SearchConfig {
  warmupCalls: number;
  searchCalls: number;
  hybridCalls: number;
  browseCalls: number;
  httpSaves: number;
  windowMs: number;
  limit: number;
}

/** The full-text paths, interleaved over the same questions in one run (index calls only). */
export interface FullTextAb {
  /** FTS5 ranks every match, rows joined for the scope check (the pre-migration-7 path). */
  join: Measurement;
  /** FTS5 ranks only the caller's scope keys (migrations 7–13). */
  partitions: Measurement;
  /** The postings beside FTS5 (migration 14; what memory.search does). */
  postings: Measurement;
  /** Questions whose top `limit` ids came back identical from postings and FTS5 (partitions). */
  identical: number;
  /** Mean share of FTS5's top `limit` that the postings also return. */
  overlap: number;
  compared: number;
  /** The first search of each team's scopes on a freshly opened store (lists loaded from disk). */
  cold: Measurement;
  /** Postings searches with one memory.save into the searched team before each. */
  afterWrites: Measurement;
}

export interface SearchSet {
  /** Mean share of all items that contain at least one of a question's terms (FTS matches). */
  matchShare?: number;
  fts: Measurement;
  vector: Measurement;
  hybrid: Measurement;
  browse: Measurement;
}

/** Runs `call` over the queries in order, one at a time, within the window's bounds. */
async function measureQueries<T>(
  items: readonly T[],
  calls: number,
  windowMs: number,
  call: (item: T) => Promise<boolean>,
): Promise<Measurement> {
  let next = 0;
  const samples = await runWindow(() => call(items[next++ % items.length] as T), {
    workers: 1,
    ms: windowMs,
    maxCalls: calls,
  });
  return summarise(samples);
}

async function measureSet(
  cfg: SearchConfig,
  queries: readonly Query[],
  search: (q: Query, mode: SearchMode) => Promise<boolean>,
  browse: (q: Query) => Promise<boolean>,
): Promise<SearchSet> {
  await measureQueries(queries, cfg.warmupCalls, cfg.windowMs, (q) => search(q, 'hybrid'));
  const run = (mode: SearchMode, calls: number): Promise<Measurement> =>
    measureQueries(queries, calls, cfg.windowMs, (q) => search(q, mode));
  return {
    fts: await run('fts', cfg.searchCalls),
    vector: await run('vector', cfg.hybridCalls),
    hybrid: await run('hybrid', cfg.hybridCalls),
    browse: await measureQueries(queries, cfg.browseCalls, cfg.windowMs, browse),
  };
}

/** The mean share of items an FTS question matches (before scope), over the first 100. */
async function matchShare(store: Store, queries: readonly Query[]): Promise<number> {
  const total = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_items');
  let sum = 0;
  const sample = queries.slice(0, 100);
  for (const q of sample) {
    const match = toFtsQuery(q.query);
    if (match === null) continue;
    const row = await store.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM memory_fts WHERE memory_fts MATCH ?',
      [match],
    );
    sum += row?.n ?? 0;
  }
  return Number((sum / sample.length / Math.max(total?.n ?? 1, 1)).toFixed(3));
}

const total = (x: Samples): Samples => ({
  ...x,
  seconds: x.latencies.reduce((a, b) => a + b, 0) / 1000,
});

/** Times one call, pushing its latency in ms. */
async function timed<T>(into: number[], call: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await call();
  into.push(performance.now() - t0);
  return out;
}

/** Interleaves the three full-text paths (one call of each per question). */
async function measurePaths(store: Store, queries: readonly Query[], cfg: SearchConfig) {
  const lat = { join: [] as number[], partitions: [] as number[], postings: [] as number[] };
  let identical = 0;
  let overlap = 0;
  const started = performance.now();
  const sample = queries.slice(0, cfg.searchCalls);
  for (const q of sample) {
    const filter = visibleTo({ teamId: q.teamId });
    const { partitions: _keys, ...joined } = filter;
    const index = store.memoryIndex;
    await timed(lat.join, () => index.fullText(q.query, joined, cfg.limit));
    const a = await timed(lat.partitions, () =>
      index.fullText(q.query, filter, cfg.limit, { engine: 'fts5' }),
    );
    const b = await timed(lat.postings, () => index.fullText(q.query, filter, cfg.limit));
    if (a.map((h) => h.rowid).join() === b.map((h) => h.rowid).join()) identical++;
    const inA = new Set(a.map((h) => h.rowid));
    overlap += b.filter((h) => inA.has(h.rowid)).length / Math.max(1, a.length);
    if (performance.now() - started > cfg.windowMs * 3) break;
  }
  const of = (latencies: number[]) => summarise(total({ latencies, errors: 0, seconds: 0 }));
  return {
    join: of(lat.join),
    partitions: of(lat.partitions),
    postings: of(lat.postings),
    identical,
    overlap: Number((overlap / Math.max(1, lat.postings.length)).toFixed(3)),
    compared: lat.postings.length,
  };
}

/** First search per team on a newly opened store: the scopes' lists come from disk. */
async function measureCold(path: string, queries: readonly Query[], limit: number) {
  const store = await openSqliteStore(path);
  const latencies: number[] = [];
  try {
    const firstPerTeam = new Map<string, Query>();
    for (const q of queries) if (!firstPerTeam.has(q.teamId)) firstPerTeam.set(q.teamId, q);
    for (const q of firstPerTeam.values())
      await timed(latencies, () =>
        store.memoryIndex.fullText(q.query, visibleTo({ teamId: q.teamId }), limit),
      );
  } finally {
    await store.close();
  }
  return summarise(total({ latencies, errors: 0, seconds: 0 }));
}

/** Postings searches right after a save into the same team (the cache replays the change). */
async function measureAfterWrites(core: Core, queries: readonly Query[], cfg: SearchConfig) {
  const latencies: number[] = [];
  const sample = queries.slice(0, Math.min(100, cfg.searchCalls));
  for (const [i, q] of sample.entries()) {
    await core.memory.save({
      title: `Mixed-load note ${i}`,
      content: `Mixed-load write ${i}: ${q.query}`,
      scope: { teamId: q.teamId },
    });
    await timed(latencies, () =>
      core.store.memoryIndex.fullText(q.query, visibleTo({ teamId: q.teamId }), cfg.limit),
    );
  }
  return summarise(total({ latencies, errors: 0, seconds: 0 }));
}

/** In-process: memory.search on a core over `path` with the synthetic embedder. */
export async function measureInProcess(
  path: string,
  queries: readonly Query[],
  cfg: SearchConfig,
): Promise<SearchSet & { rss: Rss | undefined; fullText: FullTextAb }> {
  const core = await createCore({
    dbPath: path,
    embedder: createFakeEmbedder(),
    logger: pino({ level: 'silent' }),
  });
  try {
    const set = await measureSet(
      cfg,
      queries,
      async (q, mode) => {
        const res = await core.memory.search({
          query: q.query,
          mode,
          limit: cfg.limit,
          scope: { teamId: q.teamId },
        });
        return res.degraded !== true;
      },
      async (q) => {
        await core.memory.browse({ limit: cfg.limit, scope: { teamId: q.teamId } });
        return true;
      },
    );
    const paths = await measurePaths(core.store, queries, cfg);
    const cold = await measureCold(path, queries, cfg.limit);
    const afterWrites = await measureAfterWrites(core, queries, cfg);
    return {
      ...set,
      fullText: { ...paths, cold, afterWrites },
      matchShare: await matchShare(core.store, queries),
      rss: readRss('self'),
    };
  } finally {
    await core.close();
  }
}

export interface HttpResult extends SearchSet {
  save: Measurement;
  serverRss: Rss | undefined;
}

/** Over HTTP: the bench server child (server.ts via tsx) on the same database file. */
export async function measureHttp(
  path: string,
  home: string,
  queries: readonly Query[],
  saves: readonly Fact[],
  cfg: SearchConfig,
): Promise<HttpResult> {
  const server = await spawnHttpServer(
    {
      command: process.execPath,
      args: ['--import', 'tsx', 'bench/memory/server.ts', path],
      env: { CAIRN_HOME: home },
      cwd: ROOT,
    },
    /listening on (http:\/\/\S+)/,
  );
  try {
    const { client, close } = await connectHttp(`${server.url}/api/mcp/memory`);
    try {
      const tool = async (name: string, args: Record<string, unknown>): Promise<boolean> =>
        !(await callTool(client, name, args)).isError;
      const set = await measureSet(
        cfg,
        queries,
        (q, mode) =>
          tool('memory_search', { query: q.query, mode, limit: cfg.limit, scopeTeamId: q.teamId }),
        (q) => tool('memory_browse', { limit: cfg.limit, scopeTeamId: q.teamId }),
      );
      const save = await measureQueries(saves, cfg.httpSaves, cfg.windowMs * 2, (f) =>
        tool('memory_save', {
          title: f.title,
          content: f.content,
          tags: f.tags,
          ...(f.scope.teamId === undefined ? {} : { scopeTeamId: f.scope.teamId }),
        }),
      );
      const pid = server.child.pid;
      return { ...set, save, serverRss: pid === undefined ? undefined : readRss(pid) };
    } finally {
      await close();
    }
  } finally {
    await server.stop();
  }
}
