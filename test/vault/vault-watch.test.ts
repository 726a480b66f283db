// The opt-in vault watcher: a changed, added or deleted file is re-synced within a bounded wait
// (fs.watch and polling), a failing re-sync is reported to onError and the watcher goes on;
// CAIRN_VAULT_WATCH's parsing names its variable.
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startVaultWatch, type VaultWatcher, vaultWatchFromEnv } from '../../src/vault/index.js';
import { callVault, type VaultSetup, vaultSetup } from './fixtures.js';

let v: VaultSetup;
let watcher: VaultWatcher | undefined;
const errors: unknown[] = [];
let syncs = 0;
beforeEach(async () => {
  v = await vaultSetup();
  await v.sync('default');
  errors.length = 0;
  syncs = 0;
});
afterEach(async () => {
  watcher?.close();
  watcher = undefined;
  await v.close();
});

/** Polls `check` every 25 ms for at most 15 s; fails with `what` when it never holds. */
async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (let i = 0; i < 600 && Date.now() < deadline; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const found = async (word: string): Promise<string[]> => {
  const r = await callVault<{ results: { path: string }[] }>(v.client, 'search', { query: word });
  return r.data.results.map((h) => h.path);
};

const start = async (poll: boolean): Promise<VaultWatcher> =>
  startVaultWatch(
    v.core.vault,
    { vaults: ['default'], debounceMs: 50, pollMs: 100, poll },
    { onError: (_w, err) => errors.push(err), onSynced: () => void syncs++ },
  );

describe.each([
  ['fs.watch', false],
  ['poll', true],
] as const)('the vault watcher (%s)', (how, poll) => {
  it('re-syncs a changed, an added and a deleted file', async () => {
    watcher = await start(poll);
    expect(watcher.watched).toEqual([
      { vault: 'default', collection: 'default', contentRoot: expect.any(String) as string, how },
    ]);
    expect(await found('zanzibar')).toEqual([]);
    writeFileSync(join(v.notes.path, 'notes/lunch.md'), '# Lunch\n\nTacos in zanzibar.\n');
    await waitFor('the changed file', async () =>
      (await found('zanzibar')).includes('notes/lunch.md'),
    );
    writeFileSync(join(v.notes.path, 'notes/new.md'), '# New\n\nA quokka appeared.\n');
    await waitFor('the added file', async () => (await found('quokka')).includes('notes/new.md'));
    unlinkSync(join(v.notes.path, 'notes/new.md'));
    await waitFor('the deleted file', async () => (await found('quokka')).length === 0);
    expect(errors).toEqual([]);
    expect(syncs).toBeGreaterThanOrEqual(3);
  });

  it('reports a failing re-sync and keeps serving', async () => {
    watcher = await start(poll);
    rmSync(v.notes.path, { recursive: true, force: true });
    await waitFor('an error', () => Promise.resolve(errors.length > 0));
    expect(String(errors[0])).toMatch(/content_root/);
    expect(await found('tacos')).toEqual(['notes/lunch.md']);
  });
});

describe('collections synced while watching', () => {
  it('a vault_sync into a watched vault starts its watch; another vault stays unwatched', async () => {
    watcher = await startVaultWatch(
      v.core.vault,
      { vaults: ['work'], debounceMs: 50, pollMs: 100, poll: false },
      { onError: (_w, err) => errors.push(err) },
    );
    expect(watcher.watched).toEqual([]);
    await v.sync('home');
    expect(watcher.watched).toEqual([]);
    await v.sync('work');
    expect(watcher.watched.map((w) => [w.vault, w.collection, w.how])).toEqual([
      ['work', 'work', 'fs.watch'],
    ]);
    writeFileSync(join(v.notes.path, 'notes/okapi.md'), '# Okapi\n\nAn okapi sighting.\n');
    const inVault = async (vault: string) =>
      (await callVault<{ results: unknown[] }>(v.client, 'search', { query: 'okapi', vault })).data
        .results.length;
    await waitFor('the work vault', async () => (await inVault('work')) === 1);
    expect(await inVault('home')).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('vaultWatchFromEnv', () => {
  it('is off unless set; all or names; bounded intervals named on error', () => {
    expect(vaultWatchFromEnv({})).toBeNull();
    expect(vaultWatchFromEnv({ CAIRN_VAULT_WATCH: 'all' })).toEqual({
      vaults: 'all',
      debounceMs: 500,
      pollMs: 5000,
      poll: false,
    });
    expect(
      vaultWatchFromEnv({ CAIRN_VAULT_WATCH: 'work, home', CAIRN_VAULT_WATCH_POLL_MS: '2000' }),
    ).toMatchObject({ vaults: ['work', 'home'], pollMs: 2000, poll: true });
    expect(() => vaultWatchFromEnv({ CAIRN_VAULT_WATCH: 'a b' })).toThrow(
      /^CAIRN_VAULT_WATCH must be all or vault names/,
    );
    expect(() =>
      vaultWatchFromEnv({ CAIRN_VAULT_WATCH: 'all', CAIRN_VAULT_WATCH_POLL_MS: '5' }),
    ).toThrow(/^CAIRN_VAULT_WATCH_POLL_MS must be a whole number of ms from 100/);
  });
});
