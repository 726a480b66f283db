// diary_write and diary_read through a real SDK client (in-memory transport) on a real store:
// ms paths in the internal collection, two writes in one ms never overwriting, scrubbing, the
// defaults, newest first, the agent filter, honest empty answers, refusals naming the field.
import { afterEach, describe, expect, it } from 'vitest';

import { callInvalid } from '../helpers.js';
import { seeded } from '../memory/secrets.js';
import { callVault, vaultSetup, type VaultSetup } from './fixtures.js';

type Read = {
  entries: { path: string; agent: string; topic: string; entry: string; date: string }[];
  total: number;
  matching: number;
};

let s: VaultSetup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A server whose clock is `times` in turn (the last one repeated). */
async function withClock(times: number[]): Promise<VaultSetup> {
  let i = 0;
  s = await vaultSetup({ clock: () => times[Math.min(i++, times.length - 1)] ?? 0 });
  return s;
}

describe('cairn-vault diary', () => {
  it('writes ms-resolution paths under diary/<agent>/, a suffix within one ms, never an overwrite', async () => {
    const at = Date.UTC(2026, 4, 4, 3, 2, 1, 123);
    const v = await withClock([at]);
    const call = (args: Record<string, unknown>) => callVault(v.client, 'diary_write', args);
    const first = await call({ entry: 'Shipped the sync.', topic: 'technical', agent: 'codex' });
    const second = await call({ entry: 'Then the watcher.', topic: 'technical', agent: 'codex' });
    expect(first.data).toMatchObject({
      collection: '_clawmem',
      path: 'diary/codex/2026-05-04T03-02-01-123Z-technical.md',
      agent: 'codex',
      topic: 'technical',
      date: '2026-05-04T03:02:01.123Z',
    });
    expect(second.data.path).toBe('diary/codex/2026-05-04T03-02-01-123Z-technical-2.md');
    const defaults = await call({ entry: 'No topic, no agent.' });
    expect(defaults.data.path).toBe('diary/agent/2026-05-04T03-02-01-123Z-general.md');
    const got = await callVault<{ text: string }>(v.client, 'get', {
      file: String(first.data.path),
    });
    expect(got.data.text).toContain('topic: "technical"');
    expect(got.data.text).toContain('agent: "codex"');
    expect(got.data.text).toContain('Shipped the sync.');
    const read = await callVault<Read>(v.client, 'diary_read', { agent: 'codex' });
    expect(read.data.entries.map((e) => e.entry).sort()).toEqual([
      'Shipped the sync.',
      'Then the watcher.',
    ]);
  });

  it('reads newest first, bounded by last_n, filtered by agent, and says why when empty', async () => {
    const t0 = Date.UTC(2026, 0, 1);
    const v = await withClock([t0, t0 + 1, t0 + 2, t0 + 3]);
    const empty = await callVault<Read>(v.client, 'diary_read', {});
    expect(empty.data).toMatchObject({ entries: [], total: 0 });
    expect(empty.text).toContain('no diary entries in vault default');
    for (const [entry, agent] of [
      ['one', 'ada'],
      ['two', 'bob'],
      ['three', 'ada'],
    ] as const)
      await callVault(v.client, 'diary_write', { entry, agent });
    const all = await callVault<Read>(v.client, 'diary_read', {});
    expect(all.data.entries.map((e) => e.entry)).toEqual(['three', 'two', 'one']);
    const two = await callVault<Read>(v.client, 'diary_read', { last_n: 2 });
    expect(two.data.entries.map((e) => e.entry)).toEqual(['three', 'two']);
    expect(two.text).toContain('2 of 3 diary entries');
    const ada = await callVault<Read>(v.client, 'diary_read', { agent: 'ada' });
    expect(ada.data.entries.map((e) => e.entry)).toEqual(['three', 'one']);
    expect(ada.data.entries.every((e) => e.agent === 'ada' && e.topic === 'general')).toBe(true);
    const none = await callVault<Read>(v.client, 'diary_read', { agent: 'carol' });
    expect(none.data).toMatchObject({ entries: [], total: 3, matching: 0 });
    expect(none.text).toContain('no diary entries for agent "carol" (3 in all)');
  });

  it('scrubs secrets, keeps entries out of default search, and refuses bad arguments by field', async () => {
    const v = await withClock([Date.UTC(2026, 0, 2)]);
    const secret = `ghp_${seeded(7).mixed(36)}`;
    await callVault(v.client, 'diary_write', { entry: `the key was ${secret} zebrafish` });
    const read = await callVault<Read>(v.client, 'diary_read', {});
    expect(read.data.entries[0]?.entry).not.toContain(secret);
    expect(read.data.entries[0]?.entry).toContain('[REDACTED:github-token]');
    const hits = await callVault<{ results: unknown[] }>(v.client, 'search', {
      query: 'zebrafish',
    });
    expect(hits.data.results).toEqual([]);
    const internal = await callVault<{ results: unknown[] }>(v.client, 'search', {
      query: 'zebrafish',
      includeInternal: true,
    });
    expect(internal.data.results).toHaveLength(1);
    expect(await callInvalid(v.client, 'diary_write', { entry: '  ' })).toContain('entry');
    expect(await callInvalid(v.client, 'diary_read', { last_n: 0 })).toContain('last_n');
    expect(await callInvalid(v.client, 'diary_read', { last_n: 101 })).toContain('last_n');
  });
});
