// Spawns real stdio server processes (`cairn-mcp-tasks` unless told another bin; each its own
// OS process and SQLite connection) and drives them with SDK clients. Every spawned process is tracked so a test's
// afterEach can kill whatever is left; nothing here asserts.
import { basename, join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';

import { backendEnv, ROOT } from '../helpers.js';

export const BIN = join(ROOT, 'bin/cairn-mcp-tasks.js');

/** Per-request timeout: generous, since a 2-core box may be running other suites too. */
export const REQUEST_TIMEOUT_MS = 110_000;

/** Keep at most this much of a child's stderr (it is read continuously so pipes never fill). */
const STDERR_CAP = 256 * 1024;

export interface TasksProcess {
  readonly client: Client;
  readonly pid: number;
  /** Everything the process wrote to stderr so far (capped). */
  stderr(): string;
  /** Sends a signal to the process (e.g. SIGKILL to simulate a dead agent). */
  kill(signal: NodeJS.Signals): void;
  /** Closes the client and the transport (stdin end, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
}

export interface SpawnOptions {
  db: string;
  /** The server's bin (default: BIN, cairn-mcp-tasks). */
  bin?: string | undefined;
  /** CAIRN_HOME for the child (a temp dir, so nothing touches ~/.cairn). */
  home: string;
  /** Extra CLI flags, e.g. ['--lease-ms', '1000'] or ['--read-only']. */
  args?: readonly string[];
  /** Extra environment, e.g. CAIRN_CIRCUIT_THRESHOLD. */
  env?: Record<string, string> | undefined;
}

/** The outcome of one tool call, classified without throwing. */
export type Outcome =
  | { kind: 'ok'; data: Record<string, unknown> }
  | { kind: 'tool-error'; text: string; meta: Record<string, unknown> | undefined }
  | { kind: 'rpc-error'; code: number | undefined; message: string };

/**
 * Spawns `node <bin> --db <db> ...args` (cwd ROOT, stderr kept, capped) and connects an SDK
 * client named `clientName`; a failed start closes the transport and throws with the logs.
 */
export async function connectStdio(options: {
  bin: string;
  /** Names the server in the start-failure message. */
  what: string;
  clientName: string;
  db: string;
  args?: readonly string[] | undefined;
  env: Record<string, string>;
}): Promise<{ client: Client; transport: StdioClientTransport; stderr(): string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.bin, '--db', options.db, ...(options.args ?? [])],
    env: { ...options.env, ...backendEnv(options.db) },
    cwd: ROOT,
    stderr: 'pipe',
  });
  let logs = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (logs.length < STDERR_CAP) logs += chunk.toString('utf8');
  });
  const client = new Client({ name: options.clientName, version: '0.0.0' });
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  } catch (err) {
    await transport.close().catch(() => undefined);
    throw new Error(`${options.what} process failed to start: ${String(err)}\n${logs}`, {
      cause: err,
    });
  }
  return { client, transport, stderr: () => logs };
}

/** Starts one stdio server process (tasks unless `options.bin` says) and connects a client. */
export async function spawnTasks(options: SpawnOptions): Promise<TasksProcess> {
  const { client, transport, stderr } = await connectStdio({
    bin: options.bin ?? BIN,
    what: basename(options.bin ?? BIN),
    clientName: 'cairn-concurrency',
    db: options.db,
    args: options.args,
    env: { CAIRN_HOME: options.home, CAIRN_LOG_LEVEL: 'info', ...options.env },
  });
  const pid = transport.pid;
  if (pid === null) throw new Error(`${basename(options.bin ?? BIN)} process has no pid`);
  return {
    client,
    pid,
    stderr,
    kill: (signal) => {
      // The transport forgets the pid once the child has closed, so a reused pid is never hit.
      const live = transport.pid;
      if (live !== null) process.kill(live, signal);
    },
    close: () => client.close().catch(() => undefined),
  };
}

/** Tracks spawned processes so tests can always clean up, even after a failed assertion. */
export class ProcessPool {
  readonly #live: TasksProcess[] = [];
  readonly #options: Omit<SpawnOptions, 'args'>;

  constructor(options: Omit<SpawnOptions, 'args'>) {
    this.#options = options;
  }

  /** Starts one process; `env` is added to the pool's environment for this one. */
  async spawn(args: readonly string[] = [], env?: Record<string, string>): Promise<TasksProcess> {
    const merged = env === undefined ? this.#options.env : { ...this.#options.env, ...env };
    const p = await spawnTasks({ ...this.#options, env: merged, args });
    this.#live.push(p);
    return p;
  }

  /** Starts `n` processes at once and waits until every one has finished initialize. */
  spawnMany(
    n: number,
    args: readonly string[] = [],
    env?: Record<string, string>,
  ): Promise<TasksProcess[]> {
    return Promise.all(Array.from({ length: n }, () => this.spawn(args, env)));
  }

  /** All stderr output, for failure messages and "no busy error was logged" checks. */
  stderr(): string {
    return this.#live.map((p) => `--- pid ${p.pid}\n${p.stderr()}`).join('\n');
  }

  /** Closes every process (stdin end, then SIGTERM, then SIGKILL, as the transport does). */
  async closeAll(): Promise<void> {
    await Promise.all(this.#live.splice(0).map((p) => p.close()));
  }
}

/**
 * Calls a tool and classifies the answer: success (its structuredContent, else its text parsed
 * as JSON), tool-error, or JSON-RPC error.
 */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Outcome> {
  try {
    const result = (await client.callTool({ name, arguments: args }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    })) as CallToolResult;
    const first = result.content[0];
    const text = first?.type === 'text' ? first.text : '';
    if (result.isError === true) return { kind: 'tool-error', text, meta: result._meta };
    const data = result.structuredContent ?? (JSON.parse(text) as Record<string, unknown>);
    return { kind: 'ok', data };
  } catch (err) {
    if (err instanceof McpError) return { kind: 'rpc-error', code: err.code, message: err.message };
    return { kind: 'rpc-error', code: undefined, message: String(err) };
  }
}

/** The data of a successful outcome; throws with the outcome otherwise. */
export function okData<T = Record<string, unknown>>(outcome: Outcome): T {
  if (outcome.kind !== 'ok') throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
  return outcome.data as T;
}

/** A uniformly shuffled copy (Fisher–Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Polls `probe` until it returns a value other than undefined, or fails at the deadline. */
export async function pollUntil<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Text that would mean lock contention escaped the store's retry. */
export const BUSY_PATTERN = /database is locked|SQLITE_BUSY|SQLITE_LOCKED|\bbusy\b/i;
