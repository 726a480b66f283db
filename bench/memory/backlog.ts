// Responsiveness while the embedder works through a backlog: the real `cairn serve` (dist/,
// local model) on a database of unembedded facts, vs the same server with
// CAIRN_EMBEDDINGS=none on a copy of it. Two callers in parallel, one calling memory_search
// (fts) and one list_tasks, in bounded windows; vectors written during the busy window give
// the server's embedding rate while it serves.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import {
  type BenchClient,
  callTool,
  type ChildServer,
  closeAll,
  connectHttp,
  spawnHttpServer,
} from '../lib/connect.js';
import { type Measurement, runWindow, type Samples, summarise } from '../lib/measure.js';
import { ROOT } from '../lib/report.js';
import type { Query } from './corpus.js';
import { readRss, type Rss } from './rss.js';

export const TASKS_TEAM = 'team-00';

export interface BacklogConfig {
  windowMs: number;
  maxCalls: number;
  startTimeoutMs: number;
}

export interface ResponsivenessRun {
  search: Measurement;
  listTasks: Measurement;
  /** Vectors written during the window (0 without an embedder). */
  embeddedDuringWindow: number;
  serverRss: Rss | undefined;
}

export interface BacklogResult {
  backlog: number;
  idle: ResponsivenessRun;
  busy: ResponsivenessRun;
  /** Seconds from spawn until the first vector was stored (model load). */
  firstVectorSeconds: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function serve(home: string, db: string, embeddings: 'local' | 'none'): Promise<ChildServer> {
  return spawnHttpServer(
    {
      command: process.execPath,
      args: [join(ROOT, 'bin', 'cairn.js'), 'serve', '--port', '0', '--no-auth', '--db', db],
      env: { CAIRN_HOME: home, CAIRN_EMBEDDINGS: embeddings, CAIRN_LOG_LEVEL: 'warn' },
      cwd: ROOT,
    },
    /listening on (http:\/\/\S+)/,
  );
}

/** One window of the two parallel callers against `server`. */
async function callWindow(
  server: ChildServer,
  queries: readonly Query[],
  cfg: BacklogConfig,
  ms: number,
): Promise<{ search: Samples; list: Samples }> {
  const clients: BenchClient[] = [
    await connectHttp(`${server.url}/api/mcp/memory`),
    await connectHttp(`${server.url}/api/mcp/tasks`),
  ];
  try {
    const [memory, tasks] = clients.map((c) => c.client);
    if (memory === undefined || tasks === undefined) throw new Error('clients missing');
    let next = 0;
    const bounds = { workers: 1, ms, maxCalls: cfg.maxCalls };
    const [search, list] = await Promise.all([
      runWindow(async () => {
        const q = queries[next++ % queries.length] as Query;
        const args = { query: q.query, mode: 'fts', limit: 10, scopeTeamId: q.teamId };
        return !(await callTool(memory, 'memory_search', args)).isError;
      }, bounds),
      runWindow(
        async () => !(await callTool(tasks, 'list_tasks', { teamId: TASKS_TEAM })).isError,
        bounds,
      ),
    ]);
    return { search, list };
  } finally {
    await closeAll(clients);
  }
}

const rssOf = (server: ChildServer): Rss | undefined =>
  server.child.pid === undefined ? undefined : readRss(server.child.pid);

/** The busy window: from the first stored vector, counting vectors written meanwhile. */
async function busyRun(
  server: ChildServer,
  queries: readonly Query[],
  cfg: BacklogConfig,
  vectors: () => Promise<number>,
): Promise<ResponsivenessRun> {
  const before = await vectors();
  const { search, list } = await callWindow(server, queries, cfg, cfg.windowMs);
  return {
    search: summarise(search),
    listTasks: summarise(list),
    embeddedDuringWindow: (await vectors()) - before,
    serverRss: rssOf(server),
  };
}

/**
 * Runs both servers over copies of `template` (never modified itself). The no-backlog baseline
 * is two half windows, before and after the busy one, so load drift on a shared machine hits
 * both sides alike. `vectorsIn(path)` counts stored vectors in a database file.
 */
export async function measureBacklog(
  home: string,
  template: string,
  backlog: number,
  queries: readonly Query[],
  cfg: BacklogConfig,
  vectorsIn: (path: string) => Promise<number>,
): Promise<BacklogResult> {
  const idleDb = join(home, 'backlog-idle.db');
  const busyDb = join(home, 'backlog-busy.db');
  copyFileSync(template, idleDb);
  copyFileSync(template, busyDb);
  const idleServer = await serve(home, idleDb, 'none');
  try {
    const first = await callWindow(idleServer, queries, cfg, cfg.windowMs / 2);
    const started = performance.now();
    const busyServer = await serve(home, busyDb, 'local');
    let busy: ResponsivenessRun;
    let firstVectorSeconds: number;
    try {
      while ((await vectorsIn(busyDb)) === 0) {
        if (performance.now() - started > cfg.startTimeoutMs)
          throw new Error(`no vector stored within ${cfg.startTimeoutMs} ms`);
        await sleep(250);
      }
      firstVectorSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
      busy = await busyRun(busyServer, queries, cfg, () => vectorsIn(busyDb));
    } finally {
      await busyServer.stop();
    }
    const second = await callWindow(idleServer, queries, cfg, cfg.windowMs / 2);
    const idle: ResponsivenessRun = {
      search: summarise(first.search, second.search),
      listTasks: summarise(first.list, second.list),
      embeddedDuringWindow: 0,
      serverRss: rssOf(idleServer),
    };
    return { backlog, idle, busy, firstVectorSeconds };
  } finally {
    await idleServer.stop();
  }
}
