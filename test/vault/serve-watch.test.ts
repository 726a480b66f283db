// `cairn serve` with CAIRN_VAULT_WATCH (the built CLI, spawned): a bad value stops it at start
// naming the variable; with `all`, a vault synced over HTTP is re-synced when a file changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { tempDir, type TempDir } from '../helpers.js';
import { httpClient, type HttpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { callVault, NOTES, writeNotes } from './fixtures.js';

let serve: ServeProcess | undefined;
let http: HttpClient | undefined;
let notes: TempDir | undefined;
afterEach(async () => {
  await http?.close();
  await serve?.cleanup();
  notes?.cleanup();
  http = serve = notes = undefined;
});

describe('cairn serve and CAIRN_VAULT_WATCH', () => {
  it('refuses a bad value at start, naming the variable', async () => {
    await expect(
      spawnServe([], { CAIRN_EMBEDDINGS: 'none', CAIRN_VAULT_WATCH: 'not a name' }),
    ).rejects.toThrow(/CAIRN_VAULT_WATCH must be all or vault names/);
  });

  it('keeps a vault synced while serving fresh', async () => {
    notes = tempDir('cairn-serve-watch-');
    writeNotes(notes.path, NOTES);
    serve = await spawnServe([], {
      CAIRN_EMBEDDINGS: 'none',
      CAIRN_VAULT_WATCH: 'all',
      CAIRN_VAULT_WATCH_DEBOUNCE_MS: '50',
    });
    const token = readFileSync(join(serve.home.path, 'api_token'), 'utf8').trim();
    http = await httpClient(`${serve.base}/api/mcp/vault`, token);
    const client = http.client;
    await callVault(client, 'vault_sync', { vault: 'default', content_root: notes.path });
    const hits = async (): Promise<number> =>
      (await callVault<{ results: unknown[] }>(client, 'search', { query: 'wombat' })).data.results
        .length;
    expect(await hits()).toBe(0);
    writeFileSync(join(notes.path, 'notes/wombat.md'), '# Wombat\n\nA wombat in the garden.\n');
    const deadline = Date.now() + 15_000;
    let found = 0;
    for (let i = 0; i < 300 && found === 0 && Date.now() < deadline; i++) {
      found = await hits();
      if (found === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(found).toBe(1);
  });
});
