// Mutations and lifecycle on a real store: the target cascade's strategies, forget's confidence
// gate both ways (and confirm: false), snooze hiding and coming back, the sweep's dry run and
// that it never deletes a row, restore by query, collection and all.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type VaultFixture, vaultFixture } from '../../../test/vault/store-fixture.js';
import {
  forgetDocument,
  lifecycleRestore,
  lifecycleStatus,
  lifecycleSweep,
  pinDocument,
  snoozeDocument,
} from './lifecycle.js';
import { searchVault } from './search.js';
import { findTarget, isConfident } from './target.js';

let f: VaultFixture;
beforeEach(async () => {
  f = await vaultFixture();
});
afterEach(() => f.close());

const search = async (query: string) =>
  (await searchVault(f.deps, { query, limit: 10, compact: true, filter: f.filter() })).results.map(
    (h) => h.path,
  );

describe('the target cascade', () => {
  it('tries path, then BM25, then title overlap, then vectors', async () => {
    await f.add({
      path: 'ops/queue.md',
      title: 'Queue runbook',
      text: 'retry the ingest queue with backoff',
    });
    await f.add({ path: 'food.md', title: 'Friday plans', text: 'tacos' });
    expect((await findTarget(f.deps, f.filter(), 'ops/queue.md')).strategy).toBe('path');
    expect((await findTarget(f.deps, f.filter(), 'ingest backoff')).strategy).toBe('bm25');
    expect((await findTarget(f.deps, f.filter(), 'friday-plans')).strategy).toBe('bm25');
    expect((await findTarget(f.deps, f.filter(), 'zzz lunch')).strategy).toBe('vector');
  });

  it('gates on a strong top or a clear gap; a lone weak match is not confident', () => {
    expect(isConfident([0.75])).toBe(true);
    expect(isConfident([0.5])).toBe(false);
    expect(isConfident([0.6, 0.35])).toBe(true);
    expect(isConfident([0.6, 0.5])).toBe(false);
    expect(isConfident([])).toBe(false);
  });
});

describe('memory_forget', () => {
  it('acts on a confident match only with confirm, and keeps the row', async () => {
    await f.add({
      path: 'a.md',
      text: 'the ingest queue retries with exponential backoff and a dead letter queue',
    });
    await f.add({ path: 'b.md', text: 'tacos' });
    const preview = await forgetDocument(f.deps, 'default', 'a.md', false);
    expect(preview.action).toBe('preview');
    expect(await search('queue')).toEqual(['a.md']);
    const done = await forgetDocument(f.deps, 'default', 'a.md', true);
    expect(done).toMatchObject({ action: 'forgotten', document: { path: 'a.md' } });
    expect(await search('queue')).toEqual([]);
    const rows = await f.store.vaultIndex.listDocuments('default', { includeInactive: true });
    expect(rows.map((r) => [r.path, r.active, r.deactivationReason])).toEqual([
      ['a.md', false, 'forgotten'],
      ['b.md', true, null],
    ]);
    expect((await lifecycleStatus(f.deps, 'default')).forgotten).toBe(1);
  });

  it('returns the candidates and changes nothing on an ambiguous match', async () => {
    await f.add({ path: 'one.md', text: 'queue notes alpha' });
    await f.add({ path: 'two.md', text: 'queue notes beta' });
    const r = await forgetDocument(f.deps, 'default', 'queue', true);
    expect(r.action).toBe('ambiguous');
    expect(r.target.candidates.map((c) => c.path).sort()).toEqual(['one.md', 'two.md']);
    expect((await search('queue')).sort()).toEqual(['one.md', 'two.md']);
  });
});

describe('pin and snooze', () => {
  it('pins, and snooze hides a document until the date', async () => {
    await f.add({ path: 'q.md', text: 'queue retry' });
    expect((await pinDocument(f.deps, 'default', 'q.md', false)).action).toBe('pinned');
    expect((await lifecycleStatus(f.deps, 'default')).pinned).toBe(1);
    expect((await snoozeDocument(f.deps, 'default', 'q.md', '2027-01-01')).action).toBe('snoozed');
    expect(await search('queue')).toEqual([]);
    expect((await snoozeDocument(f.deps, 'default', 'q.md', undefined)).action).toBe('unsnoozed');
    expect(await search('queue')).toEqual(['q.md']);
  });
});

describe('lifecycle_sweep and lifecycle_restore', () => {
  it('previews by default, archives when asked, never deletes, and restores', async () => {
    await f.add({ path: 'old-handoff.md', text: 'queue handoff', type: 'handoff', ageDays: 200 });
    await f.add({
      path: 'old-decision.md',
      text: 'queue decision',
      type: 'decision',
      ageDays: 900,
    });
    await f.add({
      path: 'pinned-handoff.md',
      text: 'queue pinned',
      type: 'handoff',
      ageDays: 200,
      pinned: true,
    });
    await f.add({ path: 'fresh.md', text: 'queue fresh', type: 'handoff', ageDays: 3 });
    const dry = await lifecycleSweep(f.deps, 'default', true);
    expect(dry).toMatchObject({ dryRun: true, archived: 0 });
    expect(dry.candidates.map((c) => c.path)).toEqual(['old-handoff.md']);
    expect(await search('queue')).toHaveLength(4);
    const run = await lifecycleSweep(f.deps, 'default', false);
    expect(run.archived).toBe(1);
    expect((await search('queue')).sort()).toEqual([
      'fresh.md',
      'old-decision.md',
      'pinned-handoff.md',
    ]);
    const all = await f.store.vaultIndex.listDocuments('default', { includeInactive: true });
    expect(all).toHaveLength(4);
    expect((await lifecycleStatus(f.deps, 'default')).archived).toBe(1);
    const restored = await lifecycleRestore(f.deps, 'default', { query: 'handoff', all: false });
    expect(restored.documents.map((d) => d.path)).toEqual(['old-handoff.md']);
    expect(await search('queue')).toHaveLength(4);
    await lifecycleSweep(f.deps, 'default', false);
    expect((await lifecycleRestore(f.deps, 'default', { all: true })).restored).toBe(1);
    expect((await lifecycleRestore(f.deps, 'default', { all: false })).restored).toBe(0);
  });
});
