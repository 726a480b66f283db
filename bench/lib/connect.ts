// Connecting bench clients: SDK Clients over stdio (spawning the server) or Streamable HTTP,
// and child HTTP servers that announce their URL on stdout. Loopback only.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { isolatedFetch } from './fetch.js';

/** How to start a child process. */
export interface Command {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** A child HTTP server and its MCP endpoint. */
export interface ChildServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 60_000;
/** Clients opened at once: spawning 16 Node processes together on 2 busy cores can stall. */
const OPEN_AT_ONCE = 4;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Spawns a server and waits for a stdout line matching `pattern`; capture group 1 is the URL.
 * @throws when the child exits or stays silent for 60 s.
 */
export async function spawnHttpServer(cmd: Command, pattern: RegExp): Promise<ChildServer> {
  const child = spawn(cmd.command, cmd.args, {
    cwd: cmd.cwd,
    env: { ...process.env, ...cmd.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const found = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const url = pattern.exec(line)?.[1];
      if (url !== undefined) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
  try {
    const url = await withTimeout(found, CONNECT_TIMEOUT_MS, `starting ${cmd.args.join(' ')}`);
    return { url, child, stop: () => stopChild(child) };
  } catch (err) {
    await stopChild(child);
    throw err;
  }
}

/** A connected SDK client and how to close it (closing a stdio client ends its server). */
export interface BenchClient {
  client: Client;
  /** The spawned server's pid (stdio only). */
  serverPid: number | undefined;
  close(): Promise<void>;
}

async function connect(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
): Promise<BenchClient> {
  const client = new Client({ name: 'cairn-bench', version: '0.0.0' });
  await withTimeout(client.connect(transport), CONNECT_TIMEOUT_MS, 'MCP initialize');
  const pid = transport instanceof StdioClientTransport ? transport.pid : null;
  return {
    client,
    serverPid: pid ?? undefined,
    close: () => client.close().catch(() => undefined),
  };
}

/** Spawns a stdio server and connects a client to it. Its stderr is drained, not shown. */
export function connectStdio(cmd: Command): Promise<BenchClient> {
  const transport = new StdioClientTransport({
    command: cmd.command,
    args: cmd.args,
    ...(cmd.env === undefined
      ? {}
      : { env: { ...process.env, ...cmd.env } as Record<string, string> }),
    ...(cmd.cwd === undefined ? {} : { cwd: cmd.cwd }),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  return connect(transport);
}

/** Opens one Streamable HTTP session (with the listener-leak-free fetch, see fetch.ts). */
export function connectHttp(url: string): Promise<BenchClient> {
  return connect(new StreamableHTTPClientTransport(new URL(url), { fetch: isolatedFetch }));
}

/** Opens `n` clients, a few at a time; closes the ones that opened if any failed. */
export async function connectMany(
  n: number,
  open: (i: number) => Promise<BenchClient>,
): Promise<BenchClient[]> {
  const ok: BenchClient[] = [];
  for (let first = 0; first < n; first += OPEN_AT_ONCE) {
    const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, n - first) }, (_, i) => first + i);
    const settled = await Promise.allSettled(batch.map(open));
    ok.push(...settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) {
      await closeAll(ok);
      throw failed.reason;
    }
  }
  return ok;
}

export async function closeAll(clients: readonly BenchClient[]): Promise<void> {
  await Promise.all(clients.map((c) => c.close()));
}

/** Calls a tool; returns whether it was a tool-error and its first text. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { isError: result.isError === true, text: first?.type === 'text' ? first.text : '' };
}
