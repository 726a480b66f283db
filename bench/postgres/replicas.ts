// Aggregate throughput of N `cairn serve` processes on one database: each client pinned to one
// replica over Streamable HTTP (sessions are sticky), claim_task on a fresh pool copied from a
// template (exactly-once checked in the database afterwards) and team_chat_post (sequence gaps
// checked). Every window is bounded by a call count and a time; everything stays on loopback.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import pino from 'pino';

import { createCore } from '../../src/core/index.js';
import type { Store } from '../../src/store/index.js';
import {
  type BenchClient,
  callTool,
  closeAll,
  connectHttp,
  connectMany,
  type ChildServer,
  spawnHttpServer,
} from '../lib/connect.js';
import { type Measurement, runWindow, summarise } from '../lib/measure.js';
import {
  CAIRN_URL,
  cairnHttp,
  coreDb,
  createPool,
  POOL_TEAM,
  type Template,
  type Workspace,
} from '../tasks/fixture.js';
import type { Backend } from './compare.js';

export interface ReplicaConfig {
  windowMs: number;
  /** claim_task calls per cell at most (also bounded by the template's pool). */
  maxClaims: number;
  maxPosts: number;
}

export interface ReplicaCell {
  backend: Backend;
  replicas: number;
  clients: number;
  claims: Measurement & { exactlyOnce: boolean };
  posts: Measurement & { gapFree: boolean };
  /** PostgreSQL only: transactions the cell's database rolled back (serialization retries). */
  rollbacks?: number;
}

const ROOM_TEAM = 'bench-room';

/** Starts `count` quiet, model-free replicas on `db`, each with its own CAIRN_HOME. */
export async function startReplicas(
  ws: Workspace,
  db: string,
  count: number,
  extraEnv: Record<string, string> = {},
): Promise<ChildServer[]> {
  const started: ChildServer[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const home = join(ws.home, `replica-${Date.now().toString(36)}-${i}`);
      mkdirSync(home);
      const cmd = cairnHttp(ws, db);
      const env = { ...cmd.env, ...extraEnv, CAIRN_HOME: home, CAIRN_REPLICA_ID: `r${i}` };
      started.push(
        await spawnHttpServer(
          { ...cmd, env: { ...env, CAIRN_EMBEDDINGS: 'none', CAIRN_LOG_LEVEL: 'warn' } },
          CAIRN_URL,
        ),
      );
    }
    return started;
  } catch (err) {
    await Promise.all(started.map((s) => s.stop()));
    throw err;
  }
}

/** `n` clients of `server`, client i pinned to replica i mod replicas.length. */
export const pinned = (replicas: readonly ChildServer[], server: string, n: number) =>
  connectMany(n, (i) => {
    const replica = replicas[i % replicas.length];
    if (replica === undefined) throw new Error('no replica');
    return connectHttp(`${replica.url}/api/mcp/${server}`);
  });

export const at = (clients: readonly BenchClient[], i: number): BenchClient['client'] => {
  const c = clients[i];
  if (c === undefined) throw new Error(`no client ${i}`);
  return c.client;
};

/** One claims window; returns the samples and which agent each successful claim went to. */
async function claimWindow(clients: BenchClient[], template: Template, cfg: ReplicaConfig) {
  const pool = createPool(template.poolIds);
  const won = new Map<string, string>();
  const samples = await runWindow(
    async (w) => {
      const taskId = pool.next();
      if (taskId === undefined) return false;
      const agent = `bench-agent-${w}`;
      const res = await callTool(at(clients, w), 'claim_task', { taskId, assigneeAgentId: agent });
      if (!res.isError) won.set(taskId, agent);
      return !res.isError;
    },
    { workers: clients.length, ms: cfg.windowMs, maxCalls: cfg.maxClaims },
  );
  return { samples, won };
}

async function postWindow(clients: BenchClient[], cfg: ReplicaConfig) {
  return runWindow(
    async (w) =>
      !(
        await callTool(at(clients, w), 'team_chat_post', {
          text: `bench post from ${w}`,
          authorAgentId: `poster-${w}`,
          teamId: ROOM_TEAM,
        })
      ).isError,
    { workers: clients.length, ms: cfg.windowMs, maxCalls: cfg.maxPosts },
  );
}

/**
 * The cell database's rolled-back transactions so far (a fresh database starts at 0; the
 * replicas have exited, so their statistics are flushed), or undefined on SQLite.
 */
export async function cellRollbacks(store: Store, db: string): Promise<number | undefined> {
  if (store.dialect !== 'postgres') return undefined;
  const name = new URL(db).pathname.slice(1);
  const row = await store.get<{ n: number }>(
    'SELECT xact_rollback AS n FROM pg_stat_database WHERE datname = ?',
    [name],
  );
  return row?.n;
}

/** Checks in the database: every acknowledged claim is held by its agent, and nothing else. */
async function verify(db: string, won: ReadonlyMap<string, string>, posts: number) {
  const core = await createCore({ ...coreDb(db), logger: pino({ level: 'silent' }) });
  try {
    const held = await core.store.all<{ id: string; assignee_agent_id: string | null }>(
      "SELECT id, assignee_agent_id FROM tasks WHERE team_id = ? AND status = 'in_progress'",
      [POOL_TEAM],
    );
    const exactlyOnce =
      held.length === won.size && held.every((t) => won.get(t.id) === t.assignee_agent_id);
    const seqs = await core.store.all<{ seq: number }>(
      'SELECT seq FROM room_posts WHERE room_id = ? ORDER BY seq',
      [`team:${ROOM_TEAM}`],
    );
    const gapFree = seqs.length === posts && seqs.every((r, i) => r.seq === i + 1);
    return { exactlyOnce, gapFree, rollbacks: await cellRollbacks(core.store, db) };
  } finally {
    await core.close();
  }
}

/** One cell: `replicas` servers on a fresh copy of `template`, `clients` spread over them. */
export async function measureReplicaCell(
  backend: Backend,
  ws: Workspace,
  template: Template,
  shape: { replicas: number; clients: number },
  cfg: ReplicaConfig,
): Promise<ReplicaCell> {
  const db = await ws.copy(template, `cell_r${shape.replicas}_c${shape.clients}`);
  const servers = await startReplicas(ws, db, shape.replicas);
  const opened: BenchClient[] = [];
  let claim: Awaited<ReturnType<typeof claimWindow>>;
  let posted: Awaited<ReturnType<typeof postWindow>>;
  try {
    const tasks = await pinned(servers, 'tasks', shape.clients);
    opened.push(...tasks);
    claim = await claimWindow(tasks, template, cfg);
    const chat = await pinned(servers, 'teamchat', shape.clients);
    opened.push(...chat);
    posted = await postWindow(chat, cfg);
  } finally {
    await closeAll(opened);
    await Promise.all(servers.map((s) => s.stop()));
  }
  const posts = posted.latencies.length - posted.errors;
  const checks = await verify(db, claim.won, posts);
  return {
    backend,
    ...shape,
    claims: { ...summarise(claim.samples), exactlyOnce: checks.exactlyOnce },
    posts: { ...summarise(posted), gapFree: checks.gapFree },
    ...(checks.rollbacks === undefined ? {} : { rollbacks: checks.rollbacks }),
  };
}
