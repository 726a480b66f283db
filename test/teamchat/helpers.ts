// Teamchat test helpers: sessions over linked in-memory transports on a fresh database, and
// spawned `cairn-mcp-teamchat` stdio processes. Nothing here asserts.
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import type { Core, CoreOptions } from '../../src/core/index.js';
import { createTeamChatServer, type TeamChatBinding } from '../../src/mcp/index.js';
import { REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { linkedClient, ROOT, tempCore } from '../helpers.js';

export const TEAMCHAT_BIN = join(ROOT, 'bin/cairn-mcp-teamchat.js');

export interface Delivered {
  seq: number;
  authorAgentId: string;
  kind: string;
  wrapped: string;
}

export interface Page {
  posts: Delivered[];
  nextSeq: number;
}

export interface Posted {
  posted: { seq: number; roomId: string; authorAgentId: string };
}

/** Opens cores and teamchat clients; `closeAll` (in afterEach) closes and removes everything. */
export function teamchatSessions(): {
  open(options?: CoreOptions): Promise<Core>;
  connect(core: Core, binding?: TeamChatBinding): Promise<Client>;
  closeAll(): Promise<void>;
} {
  const cleanups: (() => Promise<void>)[] = [];
  return {
    async open(options = {}) {
      const t = await tempCore(options);
      cleanups.push(t.close);
      return t.core;
    },
    async connect(core, binding = {}) {
      const client = await linkedClient(createTeamChatServer(core, binding));
      cleanups.push(() => client.close());
      return client;
    },
    async closeAll() {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
  };
}

export interface TeamchatProcess {
  readonly client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** Starts one teamchat stdio server on `db` and connects an SDK client to it. */
export async function spawnTeamchat(options: {
  db: string;
  home: string;
  args?: readonly string[];
}): Promise<TeamchatProcess> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [TEAMCHAT_BIN, '--db', options.db, ...(options.args ?? [])],
    env: { CAIRN_HOME: options.home, CAIRN_LOG_LEVEL: 'warn', CAIRN_EMBEDDINGS: 'none' },
    cwd: ROOT,
    stderr: 'pipe',
  });
  let logs = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (logs.length < 256 * 1024) logs += chunk.toString('utf8');
  });
  const client = new Client({ name: 'cairn-teamchat-test', version: '0.0.0' });
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  } catch (err) {
    await transport.close().catch(() => undefined);
    throw new Error(`teamchat process failed to start: ${String(err)}\n${logs}`, { cause: err });
  }
  return { client, stderr: () => logs, close: () => client.close().catch(() => undefined) };
}
