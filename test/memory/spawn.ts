// Spawns real `cairn-mcp-memory` stdio processes: driven by an SDK client, or by hand (raw
// JSON-RPC lines, stdout kept verbatim) for wire checks. Nothing here asserts.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { pollUntil, REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { ROOT } from '../helpers.js';

export const MEMORY_BIN = join(ROOT, 'bin/cairn-mcp-memory.js');

const STDERR_CAP = 256 * 1024;

export interface MemoryProcess {
  readonly client: Client;
  readonly pid: number;
  stderr(): string;
  /** Closes the client and the transport (stdin end, then SIGTERM, then SIGKILL). */
  close(): Promise<void>;
}

export interface MemorySpawnOptions {
  db: string;
  /** CAIRN_HOME for the child (a temp dir, so nothing touches ~/.cairn). */
  home: string;
  /** Extra CLI flags, e.g. ['--team', 't1']. */
  args?: readonly string[];
  /** Embedding provider for the child; 'none' unless a test needs the model. */
  embeddings?: 'none' | 'local';
}

/** Starts one memory stdio server and connects an SDK client to it. */
export async function spawnMemory(options: MemorySpawnOptions): Promise<MemoryProcess> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MEMORY_BIN, '--db', options.db, ...(options.args ?? [])],
    env: {
      CAIRN_HOME: options.home,
      CAIRN_LOG_LEVEL: 'info',
      CAIRN_EMBEDDINGS: options.embeddings ?? 'none',
    },
    cwd: ROOT,
    stderr: 'pipe',
  });
  let logs = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (logs.length < STDERR_CAP) logs += chunk.toString('utf8');
  });
  const client = new Client({ name: 'cairn-memory-test', version: '0.0.0' });
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  } catch (err) {
    await transport.close().catch(() => undefined);
    throw new Error(`memory process failed to start: ${String(err)}\n${logs}`, { cause: err });
  }
  const pid = transport.pid;
  if (pid === null) throw new Error('memory process has no pid');
  return { client, pid, stderr: () => logs, close: () => client.close() };
}

export interface RpcMessage {
  jsonrpc?: unknown;
  id?: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export interface RawProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Sends a request and waits (bounded) for the response with its id. */
  request(method: string, params?: Record<string, unknown>): Promise<RpcMessage>;
  notify(method: string): void;
  /** Every stdout line so far, verbatim. */
  lines(): string[];
  stderr(): string;
  /** Ends stdin and resolves with the exit code (or 'timeout'). */
  end(): Promise<number | null | 'timeout'>;
  kill(): void;
}

/** Spawns the bin (memory's unless told) with a hand-built environment and speaks raw JSON-RPC. */
export function spawnRaw(db: string, env: Record<string, string>, bin = MEMORY_BIN): RawProcess {
  const child = spawn(process.execPath, [bin, '--db', db], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < STDERR_CAP) stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let nextId = 1;
  const lines = (): string[] => stdout.split('\n').filter((l) => l !== '');
  const send = (msg: object): void => void child.stdin.write(`${JSON.stringify(msg)}\n`);
  return {
    child,
    lines,
    stderr: () => stderr,
    notify: (method) => send({ jsonrpc: '2.0', method }),
    async request(method, params) {
      const id = nextId++;
      send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
      return pollUntil(
        `response ${id} (${method})`,
        REQUEST_TIMEOUT_MS,
        () => {
          for (const line of lines()) {
            try {
              const msg = JSON.parse(line) as RpcMessage;
              if (msg.id === id) return Promise.resolve(msg);
            } catch {
              // Not JSON: the test's purity check reports it.
            }
          }
          return Promise.resolve(undefined);
        },
        25,
      );
    },
    async end() {
      child.stdin.end();
      return Promise.race([
        exited,
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000)),
      ]);
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** The JSON of a tools/call result's first text item. */
export function toolJson<T>(msg: RpcMessage): T {
  const content = msg.result?.['content'] as Array<{ type: string; text: string }> | undefined;
  const text = content?.[0]?.text;
  if (text === undefined || msg.result?.['isError'] === true) {
    throw new Error(`not a successful tool result: ${JSON.stringify(msg)}`);
  }
  return JSON.parse(text) as T;
}
