// The server processes of the crash runs: one stdio bin per server (tasks, memory, teamchat,
// tools) and one `cairn serve` (REST approvals, memory over Streamable HTTP), all on one
// database file, each with an SDK client. A member can be SIGKILLed and started again; this
// module never asserts.
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { connectStdio, REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { ROOT } from '../helpers.js';
import { type ServeProcess, spawnServe } from '../http/helpers.js';

export type MemberKind = 'tasks' | 'memory' | 'teamchat' | 'tools' | 'serve';

export const MEMBER_KINDS: readonly MemberKind[] = [
  'tasks',
  'memory',
  'teamchat',
  'tools',
  'serve',
];

/** The team whose room the teamchat writer posts to (and delegates in). */
export const CRASH_TEAM = 'crash';
/** The teamchat process's bound author. */
export const CRASH_AUTHOR = 'poster';

/** One running server process and the client that drives it. */
export interface Member {
  readonly kind: MemberKind;
  readonly pid: number;
  readonly client: Client;
  /** Calls its writers have sent and not yet seen answered. */
  inflight: number;
  /** `http://127.0.0.1:PORT` of a serve member, for REST. */
  readonly base: string | undefined;
  /** True until the process is known to be gone (killed, or its connection closed). */
  alive(): boolean;
  /** SIGKILL, then resolves once the process is gone. */
  kill(): Promise<void>;
  /** Ends the process however it can (client close, then SIGKILL); never throws. */
  stop(): Promise<void>;
  stderr(): string;
}

export interface FleetOptions {
  db: string;
  /** CAIRN_HOME of the stdio bins (serve gets its own temp home). */
  home: string;
}

/** Quiet, fast and model-free: approvals are polled every 20 ms, no embeddings, no IRC. */
const ENV = {
  CAIRN_LOG_LEVEL: 'warn',
  CAIRN_EMBEDDINGS: 'none',
  CAIRN_APPROVAL_POLL_MS: '20',
  CAIRN_APPROVAL_PROGRESS_MS: '50',
};

const STDIO_ARGS: Record<Exclude<MemberKind, 'serve'>, readonly string[]> = {
  tasks: [],
  memory: [],
  teamchat: ['--room-team', CRASH_TEAM, '--author', CRASH_AUTHOR, '--delegate'],
  tools: [],
};

function waitFor(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve) => {
    const tick = (): void => {
      if (done() || Date.now() >= deadline) resolve();
      else setTimeout(tick, 10);
    };
    tick();
  });
}

async function startStdio(kind: Exclude<MemberKind, 'serve'>, o: FleetOptions): Promise<Member> {
  const { client, transport, stderr } = await connectStdio({
    bin: join(ROOT, `bin/cairn-mcp-${kind}.js`),
    what: kind,
    clientName: `crash-${kind}`,
    db: o.db,
    args: STDIO_ARGS[kind],
    env: { CAIRN_HOME: o.home, ...ENV },
  });
  const pid = transport.pid;
  if (pid === null) throw new Error(`${kind} process has no pid`);
  let open = true;
  client.onclose = () => {
    open = false;
  };
  const gone = (): boolean => !open || transport.pid === null;
  return {
    kind,
    pid,
    client,
    base: undefined,
    inflight: 0,
    alive: () => !gone(),
    async kill() {
      const live = transport.pid;
      if (live !== null) process.kill(live, 'SIGKILL');
      await waitFor(gone, 10_000);
      open = false;
    },
    stop: () => client.close().catch(() => undefined),
    stderr,
  };
}

async function startServe(o: FleetOptions): Promise<Member> {
  const serve: ServeProcess = await spawnServe(['--db', o.db, '--no-auth'], ENV);
  let open = true;
  void serve.exited.then(() => {
    open = false;
  });
  const client = new Client({ name: 'crash-serve-memory', version: '0.0.0' });
  try {
    const url = new URL(`${serve.base}/api/mcp/memory`);
    await client.connect(new StreamableHTTPClientTransport(url), { timeout: REQUEST_TIMEOUT_MS });
  } catch (err) {
    await serve.cleanup();
    throw err;
  }
  const pid = serve.child.pid;
  if (pid === undefined) throw new Error('serve process has no pid');
  return {
    kind: 'serve',
    pid,
    client,
    base: serve.base,
    inflight: 0,
    alive: () => open,
    async kill() {
      serve.child.kill('SIGKILL');
      await serve.exited;
      open = false;
      await client.close().catch(() => undefined);
      await serve.cleanup();
    },
    async stop() {
      await client.close().catch(() => undefined);
      await serve.cleanup();
      open = false;
    },
    stderr: serve.stderr,
  };
}

/** Starts one member of `kind` on the fleet's database. */
export function startMember(kind: MemberKind, o: FleetOptions): Promise<Member> {
  return kind === 'serve' ? startServe(o) : startStdio(kind, o);
}
