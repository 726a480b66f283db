// The vault server over stdio: the real bin (cairn-mcp-vault) and `cairn mcp vault` spawned as
// child processes, with a vault configured through CAIRN_VAULTS and one created by vault_sync;
// sync, search, get, a refusal, then every tool once (every-tool.ts) through an SDK client.
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { connectStdio, REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import {
  backendEnv,
  backendFor,
  callErr,
  ROOT,
  tempDir,
  type TempDir,
  toolNames,
} from '../helpers.js';
import { fakeBd, type FakeBd } from '../vault/beads.js';
import { callEveryVaultTool } from '../vault/every-tool.js';
import { callVault, NOTES, writeNotes } from '../vault/fixtures.js';

const BIN = join(ROOT, 'bin/cairn-mcp-vault.js');
const CLI = join(ROOT, 'bin/cairn.js');

describe('vault server over stdio', () => {
  let dir: TempDir;
  let env: Record<string, string>;
  let bd: FakeBd;
  const closers: (() => Promise<unknown>)[] = [];

  let dropDb: () => Promise<void>;

  beforeEach(async () => {
    dir = tempDir('cairn-vault-stdio-');
    writeNotes(join(dir.path, 'notes'), NOTES);
    bd = fakeBd();
    dropDb = await backendFor(join(dir.path, 'cairn.db'));
    env = {
      PATH: bd.path,
      CAIRN_HOME: join(dir.path, 'home'),
      CAIRN_EMBEDDINGS: 'none',
      CAIRN_VAULTS: JSON.stringify({ work: join(dir.path, 'notes') }),
      ...backendEnv(join(dir.path, 'cairn.db')),
    };
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await dropDb();
    dir.cleanup();
    bd.cleanup();
  });

  const open = async (viaCli: boolean): Promise<Client> => {
    const db = join(dir.path, 'cairn.db');
    if (!viaCli) {
      const p = await connectStdio({
        bin: BIN,
        what: 'vault',
        clientName: 'cairn-vault-stdio',
        db,
        env,
      });
      closers.push(() => p.client.close());
      return p.client;
    }
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', 'vault', '--db', db],
      env,
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cairn-vault-cli', version: '0.0.0' });
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    closers.push(() => client.close());
    return client;
  };

  for (const [label, viaCli] of [
    ['the bin cairn-mcp-vault', false],
    ['cairn mcp vault', true],
  ] as const) {
    it(`${label}: sync, search, get, a configured vault listed, a refusal, every tool`, async () => {
      const client = await open(viaCli);
      const p = { client };
      expect(p.client.getServerVersion()?.name).toBe('cairn-vault');
      expect(await toolNames(p.client)).toContain('vault_sync');
      const listed = await callVault<{ vaults: { name: string; configured: boolean }[] }>(
        p.client,
        'list_vaults',
        {},
      );
      expect(listed.data.vaults.find((v) => v.name === 'work')).toMatchObject({ configured: true });
      await callVault(p.client, 'vault_sync', {
        vault: 'work',
        content_root: join(dir.path, 'notes'),
      });
      const r = await callVault<{ results: { path: string }[] }>(p.client, 'search', {
        query: 'dead letter queue',
        vault: 'work',
      });
      expect(r.data.results[0]?.path).toBe('decisions/queue.md');
      const got = await callVault<{ text: string }>(p.client, 'get', {
        file: 'notes/lunch.md',
        vault: 'work',
      });
      expect(got.data.text).toContain('Tacos on friday');
      expect((await callErr(p.client, 'vsearch', { query: 'x', vault: 'work' })).text).toMatch(
        /^vsearch needs an embedder/,
      );
      const called = await callEveryVaultTool(p.client, 'work', join(dir.path, 'notes'), false, bd);
      expect(called.sort()).toEqual(await toolNames(p.client));
    }, 120_000);
  }
});
