// Teamchat test helpers: sessions over linked in-memory transports on a fresh database, and
// spawned `cairn-mcp-teamchat` stdio processes. Nothing here asserts.
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { createTeamChatServer, type TeamChatBinding } from '../../src/mcp/index.js';
import { connectStdio } from '../concurrency/spawn.js';
import { type LinkedSessions, linkedSessions, ROOT } from '../helpers.js';

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
export const teamchatSessions = (): LinkedSessions<TeamChatBinding> =>
  linkedSessions(createTeamChatServer, { binding: {} });

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
  const { client, stderr } = await connectStdio({
    bin: TEAMCHAT_BIN,
    what: 'teamchat',
    clientName: 'cairn-teamchat-test',
    db: options.db,
    args: options.args,
    env: { CAIRN_HOME: options.home, CAIRN_LOG_LEVEL: 'warn', CAIRN_EMBEDDINGS: 'none' },
  });
  return { client, stderr, close: () => client.close().catch(() => undefined) };
}
