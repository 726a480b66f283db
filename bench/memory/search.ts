// Search and browse latency at 100k, in-process (memory.search / memory.browse on a core with
// the synthetic embedder) and over Streamable HTTP (an SDK client against the bench server
// child, server.ts), with the same queries, scope (one team) and limit 10. Also times
// memory_save over HTTP. One caller at a time: these are latencies, not throughput.
import pino from 'pino';

import { createCore } from '../../src/core/index.js';
import type { SearchMode } from '../../src/memory/index.js';
import { visibleTo } from '../../src/memory/scope.js';
import { type Store, toFtsQuery } from '../../src/store/index.js';
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

/** Full-text index calls with and without the scope-key prefilter, interleaved in one run. */
export interface ScopeKeyAb {
  /** Every match ranked, then joined to its row for the scope check (the pre-migration-7 path). */
  join: Measurement;
  /** Only the caller's scope keys ranked (what memory.search does). */
  partitions: Measurement;
  /** Questions whose top `limit` ids came back identical on both paths. */
  identical: number;
  compared: number;
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

/** Interleaves the two full-text paths over the same questions (one call of each per question). */
async function measureScopeKeys(
  store: Store,
  queries: readonly Query[],
  cfg: SearchConfig,
): Promise<ScopeKeyAb> {
  const join: Samples = { latencies: [], errors: 0, seconds: 0 };
  const partitions: Samples = { latencies: [], errors: 0, seconds: 0 };
  let identical = 0;
  const started = performance.now();
  const sample = queries.slice(0, cfg.searchCalls);
  for (const q of sample) {
    const filter = visibleTo({ teamId: q.teamId });
    const { partitions: _keys, ...joined } = filter;
    const t0 = performance.now();
    const a = await store.memoryIndex.fullText(q.query, joined, cfg.limit);
    const t1 = performance.now();
    const b = await store.memoryIndex.fullText(q.query, filter, cfg.limit);
    const t2 = performance.now();
    join.latencies.push(t1 - t0);
    partitions.latencies.push(t2 - t1);
    if (a.map((h) => h.rowid).join() === b.map((h) => h.rowid).join()) identical++;
    if (performance.now() - started > cfg.windowMs * 2) break;
  }
  join.seconds = join.latencies.reduce((x, y) => x + y, 0) / 1000;
  partitions.seconds = partitions.latencies.reduce((x, y) => x + y, 0) / 1000;
  return {
    join: summarise(join),
    partitions: summarise(partitions),
    identical,
    compared: join.latencies.length,
  };
}

/** In-process: memory.search on a core over `path` with the synthetic embedder. */
export async function measureInProcess(
  path: string,
  queries: readonly Query[],
  cfg: SearchConfig,
): Promise<SearchSet & { rss: Rss | undefined; scopeKeys: ScopeKeyAb }> {
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
    const scopeKeys = await measureScopeKeys(core.store, queries, cfg);
    return {
      ...set,
      scopeKeys,
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
