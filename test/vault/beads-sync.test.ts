// beads_sync through a real SDK client (in-memory transport) on a real store, with a stand-in
// `bd` first on PATH serving a recorded fixture: documents rendered (claim leases included), a
// re-sync unchanged, a removed issue deactivated, and bd missing, failing or printing garbage.
import { readFileSync, writeFileSync } from 'node:fs';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { callErr, callInvalid } from '../helpers.js';
import { fakeBd, type FakeBd } from './beads.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

type Report = {
  read: number;
  new: number;
  updated: number;
  unchanged: number;
  deactivated: number;
  collection: string;
};

let s: VaultSetup;
let bd: FakeBd;
let restore: () => void;
beforeEach(async () => {
  s = await vaultSetup();
  bd = fakeBd();
  restore = bd.onPath();
});
afterEach(async () => {
  restore();
  bd.cleanup();
  await s.close();
});

const sync = () => callVault<Report>(s.client, 'beads_sync', { project_path: bd.project });
const doc = async (path: string) =>
  (await callVault<{ text: string }>(s.client, 'get', { file: path })).data.text;

describe('beads_sync', () => {
  it('indexes every issue as a document of the beads collection, claim leases rendered', async () => {
    const r = await sync();
    expect(r.data).toMatchObject({ read: 6, new: 6, updated: 0, unchanged: 0, deactivated: 0 });
    expect(r.data.collection).toBe('beads');
    expect(r.text).toContain('6 read, 6 new, 0 updated, 0 unchanged, 0 deactivated');
    const leased = await doc('cairn-1a2.md');
    expect(leased).toContain('# Vault diary tools');
    expect(leased).toContain('**Status**: in_progress');
    expect(leased).toContain('**Priority**: 1');
    expect(leased).toContain('**Assignee**: codex');
    expect(leased).toContain('**Labels**: vault, mcp');
    expect(leased).toContain(
      '**Claim Lease**: codex, claimed 2026-12-06T22:00:00Z, expires 2026-12-06T23:00:00Z',
    );
    expect(leased).toContain('Entries live in _clawmem.');
    expect(await doc('cairn-1b4.md')).toContain(
      '**Claim Lease**: graph-dev, expires 2026-12-07T01:00:00Z',
    );
    const blocked = await doc('cairn-1a3.md');
    expect(blocked).toContain('**Dependencies**: cairn-1a2 (blocks)');
    expect(blocked).not.toContain('Claim Lease');
    expect(await doc('cairn-1b0.md')).toContain('**Status**: closed');
    const hits = await callVault<{ results: { path: string }[] }>(s.client, 'search', {
      query: 'flaky watcher',
      collection: 'beads',
    });
    expect(hits.data.results[0]?.path).toBe('cairn-1b0.md');
  });

  it('leaves unchanged issues alone, rewrites a changed one and deactivates a removed one', async () => {
    await sync();
    expect((await sync()).data).toMatchObject({ read: 6, new: 0, updated: 0, unchanged: 6 });
    const original = readFileSync(bd.issuesFile, 'utf8');
    const issues = JSON.parse(original) as {
      id: string;
      status: string;
    }[];
    const kept = issues.filter((i) => i.id !== 'cairn-1b7');
    const first = kept[0];
    if (first !== undefined) first.status = 'closed';
    writeFileSync(bd.issuesFile, JSON.stringify(kept));
    const r = await sync();
    expect(r.data).toMatchObject({ read: 5, new: 0, updated: 1, unchanged: 4, deactivated: 1 });
    expect(await callErr(s.client, 'get', { file: 'cairn-1b7.md' })).toMatchObject({});
    expect(await doc('cairn-1a2.md')).toContain('**Status**: closed');
    writeFileSync(bd.issuesFile, original);
    expect((await sync()).data).toMatchObject({ read: 6, updated: 2, deactivated: 0 });
    expect(await doc('cairn-1b7.md')).toContain('# Document the vault watcher');
  });

  it('drops a removed issue’s causal links and brings them back with the issue', async () => {
    writeNotes(s.notes.path, { 'w.md': 'The release slipped because the watcher docs lagged.\n' });
    await s.sync();
    const original = readFileSync(bd.issuesFile, 'utf8');
    const issues = JSON.parse(original) as { id: string; description: string }[];
    const watcher = issues.find((i) => i.id === 'cairn-1b7');
    if (watcher !== undefined)
      watcher.description = 'The watcher docs lagged because of the flaky watcher.';
    writeFileSync(bd.issuesFile, JSON.stringify(issues));
    await sync();
    const sources = async () =>
      (
        await callVault<{ links: { sourcePath: string }[] }>(s.client, 'find_causal_links', {
          docid: 'w.md',
        })
      ).data.links.map((l) => l.sourcePath);
    expect(await sources()).toEqual(['cairn-1b7.md']);
    writeFileSync(bd.issuesFile, JSON.stringify(issues.filter((i) => i.id !== 'cairn-1b7')));
    expect((await sync()).data).toMatchObject({ deactivated: 1 });
    expect(await sources()).toEqual([]);
    const edges = await s.core.store.read((db) =>
      db.all("SELECT id FROM vault_edges WHERE origin = 'extracted'"),
    );
    expect(edges).toEqual([]);
    writeFileSync(bd.issuesFile, JSON.stringify(issues));
    await sync();
    expect(await sources()).toEqual(['cairn-1b7.md']);
  });

  it('says so when bd is not on PATH, fails, or prints garbage; nothing is indexed', async () => {
    restore();
    restore = bd.onPath(false);
    expect((await callErr(s.client, 'beads_sync', { project_path: bd.project })).text).toContain(
      'bd not found on PATH',
    );
    restore();
    restore = bd.onPath();
    bd.mode('fail');
    expect((await callErr(s.client, 'beads_sync', { project_path: bd.project })).text).toBe(
      'bd list failed (exit 2): Error: no beads database found',
    );
    bd.mode('garbage');
    expect((await callErr(s.client, 'beads_sync', { project_path: bd.project })).text).toContain(
      'bd printed invalid JSON',
    );
    writeFileSync(bd.issuesFile, JSON.stringify([{ id: 'x-1' }]));
    bd.mode('issues');
    expect((await callErr(s.client, 'beads_sync', { project_path: bd.project })).text).toContain(
      'bd printed an unexpected payload at [0.title]',
    );
    const stats = await callVault<{ collections: { collection: string }[] }>(
      s.client,
      'memory_stats',
      {},
    );
    expect(JSON.stringify(stats.data)).not.toContain('cairn-1a2');
  });

  it('refuses a project without .beads/, a missing one, and a restricted path, naming the field', async () => {
    expect(await callInvalid(s.client, 'beads_sync', { project_path: s.notes.path })).toContain(
      `project_path: no .beads/ directory in`,
    );
    expect(await callInvalid(s.client, 'beads_sync', { project_path: '/nope/x' })).toContain(
      'project_path: /nope/x does not exist',
    );
    expect((await callErr(s.client, 'beads_sync', { project_path: '/etc' })).text).toContain(
      'restricted path refused: /etc',
    );
  });
});
