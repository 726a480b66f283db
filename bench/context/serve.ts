// The context bench's servers and calls: a real `cairn serve --no-auth` child (compiled dist/,
// as users run it) with its own CAIRN_HOME and database, SDK clients on its context and tasks
// endpoints, and the context tools called the way an agent calls them. Loopback only.
import { statSync } from 'node:fs';
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import {
  type BenchClient,
  type ChildServer,
  connectHttp,
  spawnHttpServer,
} from '../lib/connect.js';
import { ROOT } from '../lib/report.js';
import { readRss } from '../memory/rss.js';

/** A running `cairn serve` and clients on two of its servers. */
export interface BenchServer {
  server: ChildServer;
  context: BenchClient;
  tasks: BenchClient;
  dbPath: string;
  /** Peak resident memory of the server process so far, MiB (undefined off Linux). */
  peakRssMiB(): number | undefined;
  /** The database file and its WAL, MiB. */
  dbMiB(): number;
  close(): Promise<void>;
}

/** Starts `cairn serve` on `dir/<name>.db`; `embeddings` picks the local model or none. */
export async function startServer(
  dir: string,
  name: string,
  embeddings: 'local' | 'none',
): Promise<BenchServer> {
  const dbPath = join(dir, `${name}.db`);
  const server = await spawnHttpServer(
    {
      command: process.execPath,
      args: [
        join(ROOT, 'bin', 'cairn.js'),
        'serve',
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--no-auth',
        '--db',
        dbPath,
      ],
      env: {
        CAIRN_HOME: join(dir, `${name}-home`),
        CAIRN_EMBEDDINGS: embeddings,
        CAIRN_MODEL_ID: 'cairn-bench',
        USER: process.env['USER'] ?? 'cairn-bench',
      },
      cwd: ROOT,
    },
    /listening on (http:\/\/\S+)/,
  );
  const base = server.url.replace(/\/$/, '');
  const context = await connectHttp(`${base}/api/mcp/context`);
  const tasks = await connectHttp(`${base}/api/mcp/tasks`);
  const size = (p: string): number => {
    try {
      return statSync(p).size;
    } catch {
      return 0;
    }
  };
  return {
    server,
    context,
    tasks,
    dbPath,
    peakRssMiB: () => {
      const pid = server.child.pid;
      const rss = pid === undefined ? undefined : readRss(pid);
      return rss === undefined ? undefined : Math.round(rss.peakKiB / 1024);
    },
    dbMiB: () => Math.round(((size(dbPath) + size(`${dbPath}-wal`)) / 2 ** 20) * 10) / 10,
    close: async () => {
      await context.close();
      await tasks.close();
      await server.stop();
    },
  };
}

/** A tool's structured answer, or a thrown Error with its text when the call failed. */
export async function call<T>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  timeoutMs = 600_000,
): Promise<T> {
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: timeoutMs,
    resetTimeoutOnProgress: true,
  })) as CallToolResult;
  if (result.isError === true) {
    const first = result.content[0];
    throw new Error(`${name}: ${first?.type === 'text' ? first.text : 'tool error'}`);
  }
  return result.structuredContent as T;
}
