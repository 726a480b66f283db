// The vault server over Streamable HTTP (createHttpService on 127.0.0.1, port 0): mounted at
// /api/mcp/vault behind the bearer token; sync, query with its stages, vsearch with the stub
// embedder's vectors, a refusal, every tool once (every-tool.ts), and no session without the
// token.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { callErr, tempDir, type TempDir, toolNames } from '../helpers.js';
import { callEveryVaultTool } from '../vault/every-tool.js';
import { callVault, NOTES, vaultStub, writeNotes } from '../vault/fixtures.js';
import { httpSessions, initializeStatus, type Running, TOKEN } from './helpers.js';

describe('vault server over HTTP', () => {
  let svc: Running;
  let notes: TempDir;
  const sessions = httpSessions();

  beforeEach(async () => {
    notes = tempDir('cairn-vault-http-');
    writeNotes(notes.path, NOTES);
    svc = await sessions.start({}, { embedder: vaultStub });
  });
  afterEach(async () => {
    await sessions.closeAll();
    notes.cleanup();
  });

  const url = (): string => `${svc.base}/api/mcp/vault`;

  it('serves cairn-vault at /api/mcp/vault: sync, query, vsearch, a refusal', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    expect(client.getServerVersion()?.name).toBe('cairn-vault');
    expect((await toolNames(client)).length).toBe(32);
    await callVault(client, 'vault_sync', { vault: 'default', content_root: notes.path });
    await svc.core.vaultEmbedWorker?.drain();
    const q = await callVault<{ results: { path: string }[]; stages: { vector: string } }>(
      client,
      'query',
      { query: 'why backoff for the ingest queue' },
    );
    expect(q.data.results[0]?.path).toBe('decisions/queue.md');
    expect(q.data.stages.vector).toBe('cosine');
    const v = await callVault<{ results: { path: string }[]; scoreBasis: string }>(
      client,
      'vsearch',
      { query: 'food truck' },
    );
    expect(v.data).toMatchObject({ scoreBasis: 'vector-cosine' });
    expect(v.data.results[0]?.path).toBe('notes/lunch.md');
    expect((await callErr(client, 'get', { file: 'nope.md' })).text).toMatch(/nope\.md/);
  });

  it('serves every tool once (every-tool.ts)', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    const called = await callEveryVaultTool(client, 'default', notes.path, true);
    expect(called.sort()).toEqual(await toolNames(client));
  });

  it('refuses a session with a wrong bearer token', async () => {
    expect(await initializeStatus(url(), 'wrong-token')).toBe(401);
  });
});
