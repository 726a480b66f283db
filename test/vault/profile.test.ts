// profile through a real SDK client on a real store: static facts from synced markdown ranked
// by evidence, preference and decision documents, recent activity and open items; the cache
// (built_at kept while the inputs are unchanged, a forced rebuild, staleness after a new
// document); an empty vault saying which part is empty and why; hostile arguments.
import { afterEach, describe, expect, it } from 'vitest';

import type { ProfileAnswer } from '../../src/vault/index.js';
import { callInvalid, tempDir } from '../helpers.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

let s: VaultSetup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A clock the test moves: every tool call after `tick` sees a later time. */
function testClock(): { now: () => number; tick: () => void } {
  let t = Date.now();
  return { now: () => t, tick: () => void (t += 60_000) };
}

type Wire = Omit<ProfileAnswer, 'builtAt' | 'previous'> & {
  builtAt: string;
  previous: { builtAt: string } | null;
};

const profile = (args: Record<string, unknown> = {}) => {
  if (s === undefined) throw new Error('no setup');
  return callVault<Wire>(s.client, 'profile', args);
};

const facts = (r: { data: Wire }): string[] =>
  r.data.static.facts.items.map(
    (f) => `${f.subject} ${f.predicate} ${f.object} ×${f.evidenceCount}`,
  );

const TEAM = {
  'prefs/tools.md': `---\ntype: preference\n---\n# Tooling preferences\n\nThe team uses pnpm. We adopted Vitest.\n`,
  'notes/build.md':
    '# Build\n\nThe team uses pnpm for every package. The indexer depends on tree-sitter.\n',
  'handoffs/today.md':
    '---\ntype: handoff\n---\n# Handoff: search\n\nLeft off at the ranking test.\n',
  'progress/ranking.md': '---\ntype: progress\nstatus: open\n---\n# Ranking work\n\nStill open.\n',
};

/** TEAM synced on a test clock and its profile built once; the clock has moved on since. */
async function builtOnce() {
  const clock = testClock();
  const setup = await vaultSetup({ clock: clock.now });
  s = setup;
  writeNotes(setup.notes.path, TEAM);
  await setup.sync();
  const first = await profile();
  clock.tick();
  return { setup, clock, first };
}

describe('profile', () => {
  it('builds static facts by evidence, documents, recent activity and open items', async () => {
    s = await vaultSetup();
    writeNotes(s.notes.path, TEAM);
    await s.sync();
    const r = await profile();
    expect(r.data).toMatchObject({ vault: 'default', served: 'built', reason: 'first' });
    expect(facts(r)[0]).toBe('team uses pnpm ×2');
    expect(facts(r)).toEqual(
      expect.arrayContaining(['We adopted Vitest ×1', 'indexer depends_on tree-sitter ×1']),
    );
    expect(r.data.static.facts.items[0]?.source?.path).toMatch(/^(prefs\/tools|notes\/build)\.md$/);
    const paths = (l: { items: { path: string }[] }) => l.items.map((d) => d.path);
    expect(paths(r.data.static.documents)).toEqual(
      expect.arrayContaining(['prefs/tools.md', 'decisions/queue.md']),
    );
    expect(paths(r.data.dynamic.recent)).toEqual(
      expect.arrayContaining(['handoffs/today.md', 'progress/ranking.md']),
    );
    expect(paths(r.data.dynamic.openItems)).toEqual(['progress/ranking.md']);
    expect(r.data.static.empty).toBeNull();
    expect(r.data.dynamic.empty).toBeNull();
    expect(r.text).toMatch(/team —uses→ pnpm \[evidence ×2; newest default\//);
    expect(r.text).toMatch(
      /## Open items \(1\)\n- .* progress \[open\] default\/progress\/ranking\.md/,
    );
  });

  it('serves the cache while its inputs are unchanged; rebuild forces a new build', async () => {
    const { clock, first } = await builtOnce();
    const again = await profile();
    expect(again.data).toMatchObject({ served: 'cache', reason: 'unchanged', stale: false });
    expect(again.data.builtAt).toBe(first.data.builtAt);
    expect(again.data.static).toEqual(first.data.static);
    expect(again.text).toMatch(/cached, built .*inputs are unchanged/);
    clock.tick();
    const forced = await profile({ rebuild: true });
    expect(forced.data).toMatchObject({ served: 'built', reason: 'requested', stale: false });
    expect(forced.data.builtAt).not.toBe(first.data.builtAt);
    expect(forced.data.previous?.builtAt).toBe(first.data.builtAt);
    expect((await profile()).data.builtAt).toBe(forced.data.builtAt);
  });

  it('is stale after a new document, and rebuilt with it', async () => {
    const { setup, first } = await builtOnce();
    writeNotes(setup.notes.path, { 'notes/db.md': '# DB\n\nThe team uses SQLite.\n' });
    await setup.sync();
    const r = await profile();
    expect(r.data).toMatchObject({ served: 'built', reason: 'stale', stale: true });
    expect(r.data.previous?.builtAt).toBe(first.data.builtAt);
    expect(r.data.builtAt).not.toBe(first.data.builtAt);
    expect(facts(r)).toContain('team uses SQLite ×1');
    expect(r.text).toMatch(/rebuilt, the cached one \(built .*\) was stale/);
  });

  it('says which part of an empty vault is empty and why', async () => {
    s = await vaultSetup();
    const r = await profile();
    expect(r.data.static.facts).toEqual({ items: [], total: 0, truncated: false });
    expect(r.data.static.empty).toBe(
      'no static facts in vault default: nothing has been extracted into its graph yet, and no preference or decision documents',
    );
    expect(r.data.dynamic.empty).toMatch(
      /^no dynamic context in vault default: no session, handoff, progress documents .* at all, and no open items/,
    );
    expect(r.text).toMatch(/## Static facts, most evidence first \(0\)\n\(no durable facts\)/);
  });

  it('says when facts exist but none is a profile fact, and when activity is older', async () => {
    const clock = testClock();
    s = await vaultSetup({ clock: clock.now });
    const other = tempDir('cairn-profile-');
    writeNotes(other.path, {
      'a.md': '# A\n\nThe outage was caused by a bad deploy.\n',
      'sessions/old.md': '---\ntype: session\ndate: 2020-01-01\n---\n# Old session\n\nDone.\n',
    });
    await s.sync('default', other.path);
    const r = await profile();
    other.cleanup();
    expect(r.data.static.empty).toMatch(/current fact\(s\) have none of the profile predicates/);
    expect(r.data.dynamic.empty).toMatch(/none of its 1 session, .* is from the last 14 days/);
  });

  it('refuses a rebuild that is not a boolean, naming the field', async () => {
    s = await vaultSetup();
    expect(await callInvalid(s.client, 'profile', { rebuild: 'yes' })).toMatch(
      /^invalid args: rebuild: rebuild must be true or false/,
    );
    expect(await callInvalid(s.client, 'profile', { rebuild: 1 })).toMatch(/rebuild/);
  });
});
