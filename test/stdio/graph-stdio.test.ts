// cairn-graph over stdio: the real bin (cairn-mcp-graph) and `cairn mcp graph` spawned as child
// processes, each replaying the scripted session (every tool) with the same answers as the
// official memory server gives over stdio.
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { connectStdio, REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { call, officialClient, SESSION } from '../graph/official.js';
import { backendEnv, backendFor, ROOT, tempDir, type TempDir } from '../helpers.js';

const BIN = join(ROOT, 'bin/cairn-mcp-graph.js');
const CLI = join(ROOT, 'bin/cairn.js');

describe('graph server over stdio', () => {
  let dir: TempDir;
  const closers: (() => Promise<unknown>)[] = [];

  let dropDb: () => Promise<void>;

  beforeEach(async () => {
    dir = tempDir('cairn-graph-stdio-');
    dropDb = await backendFor(join(dir.path, 'cairn.db'));
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await dropDb();
    dir.cleanup();
  });

  const open = async (viaCli: boolean): Promise<Client> => {
    const db = join(dir.path, 'cairn.db');
    const env = {
      CAIRN_HOME: join(dir.path, 'home'),
      CAIRN_EMBEDDINGS: 'none',
      ...backendEnv(db),
    };
    if (!viaCli) {
      const p = await connectStdio({ bin: BIN, what: 'graph', clientName: 'graph-stdio', db, env });
      closers.push(() => p.client.close());
      return p.client;
    }
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', 'graph', '--db', db],
      env,
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'graph-cli', version: '0.0.0' });
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    closers.push(() => client.close());
    return client;
  };

  for (const [label, viaCli] of [
    ['the bin cairn-mcp-graph', false],
    ['cairn mcp graph', true],
  ] as const) {
    it(`${label}: the scripted session answers as the official server's`, async () => {
      const ours = await open(viaCli);
      expect(ours.getServerVersion()?.name).toBe('cairn-graph');
      const official = await officialClient(join(dir.path, 'memory.jsonl'));
      closers.push(() => official.close());
      for (const [i, step] of SESSION.entries())
        expect(await call(ours, step), `step ${i}`).toEqual(await call(official, step));
    }, 120_000);
  }
});
