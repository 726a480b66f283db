// Calls per second, Cairn vs the bare echo server, for one transport and concurrency. The
// three call kinds take turns in short windows over several rounds (order rotated each round),
// so load from a noisy machine lands on all of them alike.
import {
  type BenchClient,
  callTool,
  closeAll,
  connectHttp,
  connectMany,
  connectStdio,
  spawnHttpServer,
} from '../lib/connect.js';
import { cpuMicros } from '../lib/cpu.js';
import {
  type CallFn,
  type Measurement,
  runWindow,
  type Samples,
  summarise,
} from '../lib/measure.js';
import {
  CAIRN_MCP_PATH,
  CAIRN_URL,
  cairnHttp,
  cairnStdio,
  createPool,
  ECHO_URL,
  echoHttp,
  echoStdio,
  LIST_TEAM,
  type Template,
  type Workspace,
} from './fixture.js';

export type Transport = 'stdio' | 'http';

export interface ThroughputConfig {
  /** Warm-up per call kind, once per cell. */
  warmupMs: number;
  rounds: number;
  /** Each kind's window per round; a kind's measured time is rounds × windowMs. */
  windowMs: number;
  /** Call cap per window (claim_task windows are also capped by the pool they draw from). */
  maxCalls: number;
  /** claim_task calls allowed per cell, warm-up included; must not exceed the seeded pool. */
  claimBudget: number;
}

export interface Cell {
  transport: Transport;
  clients: number;
  echo: Measurement;
  listTasks: Measurement;
  claimTask: Measurement;
  /** echo rate / Cairn rate (1.0 = no overhead). */
  overhead: { listTasks: number; claimTask: number };
}

interface Group {
  clients: BenchClient[];
  /** The server processes serving this group (one for HTTP, one per client for stdio). */
  pids: number[];
  stop(): Promise<void>;
}

async function openGroup(
  transport: Transport,
  clients: number,
  server: 'echo' | { ws: Workspace; db: string },
): Promise<Group> {
  const isEcho = server === 'echo';
  if (transport === 'stdio') {
    const cmd = isEcho ? echoStdio() : cairnStdio(server.ws, server.db);
    const opened = await connectMany(clients, () => connectStdio(cmd));
    const pids = opened.flatMap((c) => (c.serverPid === undefined ? [] : [c.serverPid]));
    return { clients: opened, pids, stop: () => closeAll(opened) };
  }
  const child = isEcho
    ? await spawnHttpServer(echoHttp(), ECHO_URL)
    : await spawnHttpServer(cairnHttp(server.ws, server.db), CAIRN_URL);
  const url = isEcho ? child.url : `${child.url}${CAIRN_MCP_PATH}`;
  try {
    const opened = await connectMany(clients, () => connectHttp(url));
    return {
      clients: opened,
      pids: child.child.pid === undefined ? [] : [child.child.pid],
      stop: async () => {
        await closeAll(opened);
        await child.stop();
      },
    };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

const client = (group: Group, worker: number): BenchClient['client'] => {
  const c = group.clients[worker];
  if (c === undefined) throw new Error(`no client ${worker}`);
  return c.client;
};

/** Fails fast if list_tasks does not return the seeded board (a bench on a wrong board lies). */
async function checkBoard(group: Group, expected: number): Promise<void> {
  const res = await callTool(client(group, 0), 'list_tasks', { teamId: LIST_TEAM });
  const tasks = (JSON.parse(res.text) as { tasks?: unknown[] }).tasks;
  if (res.isError || tasks?.length !== expected) {
    throw new Error(`list_tasks returned ${tasks?.length ?? res.text}, expected ${expected} tasks`);
  }
}

const ratio = (echo: Measurement, cairn: Measurement): number =>
  cairn.rate > 0 ? Number((echo.rate / cairn.rate).toFixed(2)) : Number.POSITIVE_INFINITY;

/** The three call kinds of a cell, in order: echo, list_tasks, claim_task (a fresh task each). */
function callKinds(echo: Group, cairn: Group, template: Template, cfg: ThroughputConfig) {
  const args = { teamId: LIST_TEAM };
  const pool = createPool(template.poolIds);
  const echoCall: CallFn = async (w) => !(await callTool(client(echo, w), 'echo', args)).isError;
  const listCall: CallFn = async (w) =>
    !(await callTool(client(cairn, w), 'list_tasks', args)).isError;
  const claimCall: CallFn = async (w) => {
    const taskId = pool.next();
    if (taskId === undefined) return false;
    const res = await callTool(client(cairn, w), 'claim_task', {
      taskId,
      assigneeAgentId: `bench-agent-${w}`,
    });
    return !res.isError;
  };
  const claimCap = Math.floor(cfg.claimBudget / (cfg.rounds + 1));
  return [
    { call: echoCall, maxCalls: cfg.maxCalls, pids: echo.pids },
    { call: listCall, maxCalls: cfg.maxCalls, pids: cairn.pids },
    { call: claimCall, maxCalls: claimCap, pids: cairn.pids },
  ];
}

type Kind = ReturnType<typeof callKinds>[number];

/** One window of one kind, with the CPU its server processes and the clients used meanwhile. */
async function timedWindow(kind: Kind, workers: number, ms: number): Promise<Samples> {
  const before = cpuMicros(kind.pids);
  const clientBefore = process.cpuUsage();
  const samples = await runWindow(kind.call, { workers, ms, maxCalls: kind.maxCalls });
  const client = process.cpuUsage(clientBefore);
  const after = cpuMicros(kind.pids);
  const clientCpuUs = client.user + client.system;
  if (before === undefined || after === undefined) return { ...samples, clientCpuUs };
  return { ...samples, serverCpuUs: after - before, clientCpuUs };
}

/** Warms each kind up, then runs `rounds` rounds of one window per kind, rotating the order. */
async function interleave(
  kinds: readonly Kind[],
  workers: number,
  cfg: ThroughputConfig,
): Promise<Measurement[]> {
  for (const kind of kinds) await timedWindow(kind, workers, cfg.warmupMs);
  const samples: Samples[][] = kinds.map(() => []);
  for (let round = 0; round < cfg.rounds; round++) {
    for (let k = 0; k < kinds.length; k++) {
      const turn = (k + round) % kinds.length;
      const kind = kinds[turn];
      if (kind === undefined) continue;
      samples[turn]?.push(await timedWindow(kind, workers, cfg.windowMs));
    }
  }
  return samples.map((windows) => summarise(...windows));
}

/** Measures one transport × concurrency cell on a fresh copy of `template`. */
export async function measureCell(
  ws: Workspace,
  template: Template,
  listSize: number,
  transport: Transport,
  clients: number,
  cfg: ThroughputConfig,
): Promise<Cell> {
  const db = await ws.copy(template, `${transport}-${clients}`);
  const echo = await openGroup(transport, clients, 'echo');
  let cairn: Group | undefined;
  try {
    cairn = await openGroup(transport, clients, { ws, db });
    await checkBoard(cairn, listSize);
    const kinds = callKinds(echo, cairn, template, cfg);
    const [echoM, listM, claimM] = await interleave(kinds, clients, cfg);
    if (echoM === undefined || listM === undefined || claimM === undefined) {
      throw new Error('missing measurement');
    }
    return {
      transport,
      clients,
      echo: echoM,
      listTasks: listM,
      claimTask: claimM,
      overhead: { listTasks: ratio(echoM, listM), claimTask: ratio(echoM, claimM) },
    };
  } finally {
    await cairn?.stop();
    await echo.stop();
  }
}
