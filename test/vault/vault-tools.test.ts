// cairn-vault through a real SDK client (in-memory transport) on a real store: every tool's
// happy path and defaults, the score regimes and minScore semantics, the internal collection,
// restricted paths (also through a symlink), two vaults isolated, a file deleted on disk not
// served after re-sync, forget's gate, the sweep never deleting a row, refusals naming the field.
import { mkdirSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { saveInternal } from '../../src/vault/index.js';
import { callErr, callInvalid, tempDir, toolNames } from '../helpers.js';
import { callVault, NOTES, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

const TOOLS = [
  'memory_retrieve',
  'query',
  'search',
  'vsearch',
  'intent_search',
  'query_plan',
  'memory_rank',
  'get',
  'multi_get',
  'find_similar',
  'timeline',
  'session_log',
  'memory_pin',
  'memory_snooze',
  'memory_forget',
  'lifecycle_status',
  'lifecycle_sweep',
  'lifecycle_restore',
  'status',
  'reindex',
  'index_stats',
  'memory_stats',
  'list_vaults',
  'vault_sync',
  'beads_sync',
  'diary_write',
  'diary_read',
  'kg_query',
  'profile',
  'find_causal_links',
  'build_graphs',
  'memory_evolution_status',
];

type Hits = { results: { path: string; docid: string; score: number; compositeScore?: number }[] };

let s: VaultSetup;
beforeEach(async () => {
  s = await vaultSetup();
});
afterEach(() => s.close());

const call = <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) =>
  callVault<T>(s.client, name, args);
const paths = (h: Hits): string[] => h.results.map((r) => r.path);

describe('cairn-vault', () => {
  it('lists exactly the tools of this issue and the graph tools built so far', async () => {
    expect(await toolNames(s.client)).toEqual([...TOOLS].sort());
  });

  it('syncs, then searches by the raw BM25 transform with minScore only when given', async () => {
    const sync = await s.sync();
    expect(sync).toMatchObject({
      vault: 'default',
      collection: 'default',
      added: 4,
      deactivated: 0,
      pattern: '**/*.md',
    });
    const r = await call<Hits & { scoreBasis: string; minScore: number | null }>('search', {
      query: 'dead letter queue',
    });
    expect(r.data).toMatchObject({ scoreBasis: 'fts-bm25', minScore: null, regime: 'raw' });
    expect(paths(r.data)[0]).toBe('decisions/queue.md');
    expect(r.data.results[0]?.score).toBe(r.data.results[0]?.compositeScore);
    expect(r.text).toMatch(
      /^\d+ result\(s\); raw regime; scoreBasis fts-bm25 for "dead letter queue"/,
    );
    const zero = await call<{ minScore: number }>('search', {
      query: 'dead letter queue',
      minScore: 0,
    });
    expect(zero.data.minScore).toBe(0);
    const high = await call<Hits & { status: string }>('search', {
      query: 'queue',
      minScore: 0.9999,
    });
    expect(high.data).toMatchObject({ status: 'below-min-score', results: [] });
    expect(high.text).toMatch(/^BELOW-MIN-SCORE/);
  });

  it('recency queries switch to the composite regime and say so', async () => {
    await s.sync();
    const r = await call<Hits & { scoreBasis: string; recencyIntent: boolean }>('search', {
      query: 'latest handoff',
    });
    expect(r.data).toMatchObject({
      scoreBasis: 'composite',
      recencyIntent: true,
      regime: 'composite',
    });
  });

  it('vsearch ranks by cosine; query reports its stages; memory_rank reproduces the composite', async () => {
    await s.sync();
    const v = await call<Hits & { scoreBasis: string }>('vsearch', {
      query: 'food truck',
      limit: 2,
    });
    expect(v.data.scoreBasis).toBe('vector-cosine');
    expect(paths(v.data)[0]).toBe('notes/lunch.md');
    const q = await call<Hits & { stages: Record<string, unknown> }>('query', {
      query: 'why exponential backoff for retries',
    });
    expect(paths(q.data)).toContain('decisions/queue.md');
    expect(q.data.stages).toMatchObject({ vector: 'cosine', rerank: 'features' });
    const rank = await call<{
      items: {
        compositeScore: number;
        breakdown: { blend: number; pinBoost: number; multipliers: Record<string, number> };
      }[];
    }>('memory_rank', { query: 'queue retries' });
    expect(rank.data.items.length).toBeGreaterThan(0);
    for (const i of rank.data.items) {
      const m = i.breakdown.multipliers;
      const product =
        i.breakdown.blend *
        (m['quality'] ?? 0) *
        (m['length'] ?? 0) *
        (m['frequency'] ?? 0) *
        (m['canonical'] ?? 0) *
        (m['coActivation'] ?? 0);
      expect(i.compositeScore).toBeCloseTo(product + i.breakdown.pinBoost, 12);
    }
  });

  it('query skips expansion on a strong BM25 signal, never when intent is given', async () => {
    await s.sync();
    type Q = { stages: { bypassed: boolean; expansion: string } };
    const strong = await call<Q>('query', { query: 'tacos friday food truck noon' });
    expect(strong.data.stages.bypassed).toBe(true);
    expect(strong.data.stages.expansion).toMatch(/^skipped: strong signal/);
    const hinted = await call<Q>('query', {
      query: 'tacos friday food truck noon',
      intent: 'lunch',
    });
    expect(hinted.data.stages.bypassed).toBe(false);
    const weak = await call<Q>('query', { query: 'retries and jitter' });
    expect(weak.data.stages.bypassed).toBe(false);
  });

  it('memory_retrieve routes, intent_search classifies, query_plan splits', async () => {
    await s.sync();
    const timeline = await call<{ route: string }>('memory_retrieve', {
      query: 'where did we leave off in the last session',
    });
    expect(timeline.data.route).toBe('timeline');
    const causal = await call<{ route: string }>('memory_retrieve', {
      query: 'why did we choose backoff',
    });
    expect(causal.data.route).toBe('causal');
    const intent = await call<{ intent: string }>('intent_search', {
      query: 'why did we choose backoff',
    });
    expect(intent.data.intent).toBe('WHY');
    const plan = await call<{ clauses: unknown[] }>('query_plan', {
      query: 'how do queue retries back off; where is the taco lunch',
    });
    expect(plan.data.clauses).toHaveLength(2);
  });

  it('get, multi_get, find_similar, timeline, session_log', async () => {
    await s.sync();
    const got = await call<{ document: { docid: string }; text: string; totalLines: number }>(
      'get',
      { file: 'decisions/queue.md', fromLine: 7, maxLines: 2, lineNumbers: true },
    );
    expect(got.data.text.split('\n')[0]).toMatch(/^7: /);
    const byDocid = await call<{ document: { path: string } }>('get', {
      file: `#${got.data.document.docid}`,
    });
    expect(byDocid.data.document.path).toBe('decisions/queue.md');
    const many = await call<{
      documents: { cut: string | null }[];
      bytes: number;
      truncated: boolean;
    }>('multi_get', { pattern: '**/*.md', maxBytes: 200 });
    expect(many.data.truncated).toBe(true);
    expect(many.data.bytes).toBeLessThanOrEqual(200);
    expect(many.data.documents.some((d) => d.cut === 'maxBytes')).toBe(true);
    const similar = await call<Hits>('find_similar', { file: 'research/backoff.md' });
    expect(paths(similar.data)).not.toContain('research/backoff.md');
    expect(paths(similar.data)[0]).toBe('decisions/queue.md');
    const t = await call<{ reference: { path: string } }>('timeline', {
      docid: `#${got.data.document.docid}`,
    });
    expect(t.data.reference.path).toBe('decisions/queue.md');
    const log = await call<{ sessions: { path: string }[] }>('session_log');
    expect(log.data.sessions.map((x) => x.path)).toEqual(['handoffs/2026-11-30.md']);
  });

  it('excludes _clawmem by default; includeInternal and naming it opt in', async () => {
    await s.sync();
    await saveInternal(s.core.store, s.core.vault.scrubber, 'default', {
      kind: 'observation',
      title: 'Queue storm',
      content: 'Observed a retry storm on the ingest queue.',
    });
    expect(paths((await call<Hits>('search', { query: 'retry storm' })).data)).not.toContain(
      expect.stringMatching(/^observations\//),
    );
    const opted = await call<Hits>('search', { query: 'retry storm', includeInternal: true });
    expect(paths(opted.data).some((p) => p.startsWith('observations/'))).toBe(true);
    const named = await call<Hits>('search', { query: 'retry storm', collection: '_clawmem' });
    expect(paths(named.data).every((p) => p.startsWith('observations/'))).toBe(true);
  });

  it('refuses restricted paths, also through a symlink, and unknown names with the list', async () => {
    expect(
      (await callErr(s.client, 'vault_sync', { vault: 'x', content_root: '/etc/' })).text,
    ).toMatch(/restricted path refused: \/etc/);
    const base = tempDir().path;
    mkdirSync(join(base, '.ssh'));
    const link = join(base, 'innocent');
    symlinkSync(join(base, '.ssh'), link);
    expect(
      (await callErr(s.client, 'vault_sync', { vault: 'x', content_root: link })).text,
    ).toMatch(/restricted path refused: .*\.ssh/);
    expect((await callErr(s.client, 'search', { query: 'x', vault: 'nope' })).text).toMatch(
      /unknown vault "nope"; available: default/,
    );
    await s.sync();
    expect(await callInvalid(s.client, 'search', { query: 'x', collection: 'nope' })).toMatch(
      /^invalid args: collection: unknown collection "nope" in vault default; available: default/,
    );
  });

  it('keeps two vaults apart and stops serving a file deleted on disk', async () => {
    await s.sync('work');
    const other = tempDir('cairn-vault-home-');
    writeNotes(other.path, { 'home.md': '# Home\n\nThe queue at the bakery.\n' });
    await s.sync('home', other.path);
    expect(paths((await call<Hits>('search', { query: 'queue', vault: 'home' })).data)).toEqual([
      'home.md',
    ]);
    expect(
      paths((await call<Hits>('search', { query: 'queue', vault: 'work' })).data),
    ).not.toContain('home.md');
    expect(
      (await call<{ vaults: { name: string }[] }>('list_vaults')).data.vaults.map((v) => v.name),
    ).toEqual(['default', 'home', 'work']);
    unlinkSync(join(s.notes.path, 'decisions/queue.md'));
    const re = await s.sync('work');
    expect(re).toMatchObject({ deactivated: 1 });
    expect(
      paths((await call<Hits>('search', { query: 'dead letter', vault: 'work' })).data),
    ).not.toContain('decisions/queue.md');
    expect(
      (await callErr(s.client, 'get', { file: 'decisions/queue.md', vault: 'work' })).text,
    ).toMatch(/decisions\/queue\.md/);
    rmSync(other.path, { recursive: true, force: true });
  });

  it('forget acts only when confident; the sweep archives and never deletes; restore brings back', async () => {
    await s.sync();
    const vague = await call<{ action: string }>('memory_forget', { query: 'the' });
    expect(['ambiguous', 'not-found']).toContain(vague.data.action);
    const sure = await call<{ action: string }>('memory_forget', { query: 'notes/lunch.md' });
    expect(sure.data.action).toBe('forgotten');
    expect((await call<{ forgotten: number }>('lifecycle_status')).data.forgotten).toBe(1);
    const dry = await call<{ dryRun: boolean; archived: number }>('lifecycle_sweep');
    expect(dry.data).toMatchObject({ dryRun: true, archived: 0 });
    const stats = await call<{ collections: { counts: { total: number } }[] }>('memory_stats');
    expect(stats.data.collections[0]?.counts.total).toBe(Object.keys(NOTES).length);
    expect(
      (await call<{ restored: number }>('lifecycle_restore', { all: true })).data.restored,
    ).toBe(0);
    expect((await call<{ healthy: boolean }>('status')).data.healthy).toBe(true);
    expect((await call<{ collections: unknown[] }>('index_stats')).data.collections).toHaveLength(
      1,
    );
    expect((await call<{ reports: unknown[] }>('reindex')).data.reports).toHaveLength(1);
  });

  it('names the field of every invalid argument', async () => {
    expect(await callInvalid(s.client, 'search', { query: '' })).toMatch(
      /^invalid args: query: query must be a non-empty string/,
    );
    expect(await callInvalid(s.client, 'search', { query: 'x', minScore: 2 })).toMatch(/minScore/);
    expect(await callInvalid(s.client, 'memory_rank', { query: 'x', limit: 51 })).toMatch(/limit/);
    expect(await callInvalid(s.client, 'memory_snooze', { query: 'x', until: 'soon' })).toMatch(
      /until must be an ISO date/,
    );
    expect(await callInvalid(s.client, 'memory_retrieve', { query: 'x', mode: 'psychic' })).toMatch(
      /mode/,
    );
    expect(await callInvalid(s.client, 'vault_sync', { vault: 'v' })).toMatch(/content_root/);
  });
});
