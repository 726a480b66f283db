// The vault's retrieval over a real SQLite file (documents written through the store's vault
// operations, vectors from a two-axis stub embedder): the raw and composite regimes of search
// and vsearch, minScore semantics, pin on exact ties only, the internal collection and its
// opt-ins, query's stages and the strong-signal bypass, memory_rank's factors.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type VaultFixture, vaultFixture } from '../../../test/vault/store-fixture.js';
import { INTERNAL_COLLECTION, type VaultFilter } from '../../store/index.js';
import type { FullHit } from './hits.js';
import { queryVault } from './query.js';
import { explainVaultRanking } from './rank-explain.js';
import { searchVault, vsearchVault } from './search.js';

let f: VaultFixture;
let deps: VaultFixture['deps'];
let add: VaultFixture['add'];
let filter: VaultFixture['filter'];
beforeEach(async () => {
  f = await vaultFixture();
  ({ deps, add, filter } = f);
});
afterEach(() => f.close());

const args = (query: string, over: Record<string, unknown> = {}) => ({
  query,
  limit: 10,
  compact: false,
  filter: filter(),
  ...over,
});

describe('search', () => {
  it('ranks by the raw BM25 transform, reports it as both scores, minScore only when given', async () => {
    await add({ path: 'a.md', text: 'the ingest queue retries with backoff' });
    await add({ path: 'b.md', text: 'lunch tacos on friday' });
    const r = await searchVault(deps, args('queue backoff'));
    expect(r).toMatchObject({
      regime: 'raw',
      scoreBasis: 'fts-bm25',
      minScore: null,
      status: 'found',
    });
    const top = r.results[0] as FullHit;
    expect(top.path).toBe('a.md');
    expect(top.score).toBe(top.compositeScore);
    expect(top.score).toBeGreaterThan(0);
    expect(top.score).toBeLessThan(1);
    const zero = await searchVault(deps, args('queue backoff', { minScore: 0 }));
    expect(zero.minScore).toBe(0);
    expect(zero.results).toHaveLength(1);
    const high = await searchVault(deps, args('queue backoff', { minScore: 0.999 }));
    expect(high).toMatchObject({ status: 'below-min-score', results: [] });
    const none = await searchVault(deps, args('kubernetes'));
    expect(none.status).toBe('no-match');
  });

  it('says an empty vault is empty', async () => {
    expect((await searchVault(deps, args('anything'))).status).toBe('empty');
  });

  it('lets pin win exact raw ties only', async () => {
    await add({ path: 'a-plain.md', text: 'retry budget for the queue' });
    await add({ path: 'b-pinned.md', text: 'retry budget for the queue', pinned: true });
    await add({ path: 'c-pinned.md', text: 'the retry notes', pinned: true });
    const r = await searchVault(deps, args('retry budget queue'));
    expect(r.results.map((h) => h.path)).toEqual(['b-pinned.md', 'a-plain.md', 'c-pinned.md']);
  });

  it('switches recency-intent queries to the composite regime', async () => {
    await add({
      path: 'old.md',
      text: 'queue retry backoff handoff',
      type: 'handoff',
      ageDays: 200,
    });
    await add({ path: 'new.md', text: 'queue handoff', type: 'handoff', ageDays: 1 });
    const r = await searchVault(deps, args('latest queue handoff'));
    expect(r).toMatchObject({
      regime: 'composite',
      scoreBasis: 'composite',
      recencyIntent: true,
      minScore: 0,
    });
    const first = r.results[0] as FullHit;
    expect(first.path).toBe('new.md');
    expect(first.compositeScore).not.toBe(first.score);
    const compact = await searchVault(deps, args('latest queue handoff', { compact: true }));
    expect(compact.results[0]?.score).toBe(first.compositeScore);
  });

  it('excludes the internal collection unless asked or named', async () => {
    await add({ path: 'n.md', text: 'queue notes' });
    await add({
      path: 'observations/o.md',
      text: 'queue observation',
      collection: INTERNAL_COLLECTION,
    });
    const paths = async (f: Partial<VaultFilter>) =>
      (await searchVault(deps, args('queue', { filter: filter(f) }))).results
        .map((h) => h.path)
        .sort();
    expect(await paths({})).toEqual(['n.md']);
    expect(await paths({ includeInternal: true })).toEqual(['n.md', 'observations/o.md']);
    expect(await paths({ collections: [INTERNAL_COLLECTION] })).toEqual(['observations/o.md']);
  });
});

describe('vsearch', () => {
  it('ranks by raw cosine; recency queries keep the 0.3 composite floor', async () => {
    await add({ path: 'q.md', text: 'queue retry backoff' });
    await add({ path: 't.md', text: 'tacos for lunch' });
    const r = await vsearchVault(deps, args('dead letter handling'));
    expect(r).toMatchObject({ regime: 'raw', scoreBasis: 'vector-cosine', minScore: null });
    expect(r.results.map((h) => h.path)).toEqual(['q.md', 't.md']);
    expect(r.degraded).toBeUndefined();
    const recent = await vsearchVault(deps, args('latest dead letter handling'));
    expect(recent).toMatchObject({ regime: 'composite', minScore: 0.3 });
    const none = await vsearchVault({ ...deps, embedder: null }, args('x')).catch(
      (e: Error) => e.message,
    );
    expect(none).toMatch(/^vsearch needs an embedder/);
  });
});

describe('query', () => {
  it('runs expansion, fusion and rerank, and says so', async () => {
    await add({
      path: 'h.md',
      title: 'Queue handoff',
      text: 'The ingest queue retries with exponential backoff; retries end in the dead letter queue.',
    });
    await add({
      path: 'd.md',
      title: 'Dead letters',
      text: 'Messages that exhaust retries land in the dead letter queue and page on-call.',
    });
    await add({ path: 'l.md', title: 'Lunch', text: 'Tacos on friday.' });
    const r = await queryVault(deps, {
      ...args('queue retries'),
      intent: undefined,
      candidateLimit: 30,
      profile: 'query',
    });
    expect(r).toMatchObject({
      regime: 'composite',
      scoreBasis: 'composite',
      weights: 'query',
      degraded: false,
    });
    expect(r.results[0]?.path).toBe('h.md');
    expect(r.stages).toMatchObject({ vector: 'cosine', rerank: 'features', bypassed: false });
    expect(r.stages.fusion).toMatch(/^rrf k=60 over \d+ lists$/);
  });
});

describe('memory_rank', () => {
  it('explains every item with factors that reproduce its composite score', async () => {
    await add({ path: 'old.md', text: 'queue retry backoff retry', ageDays: 900, type: 'handoff' });
    for (let i = 0; i < 3; i++)
      await add({ path: `p${i}.md`, text: `queue note ${i}`, pinned: true, ageDays: 1 });
    const r = await explainVaultRanking(deps, {
      query: 'queue retry backoff',
      limit: 2,
      weightProfile: 'default',
      filter: filter(),
    });
    expect(r.weights).toBe('default');
    const old = r.items.find((i) => i.path === 'old.md');
    expect(old).toMatchObject({ rawRank: 1, demotedRawWinner: true });
    for (const item of r.items) {
      const b = item.breakdown;
      const m = b.multipliers;
      expect(item.compositeScore).toBe(
        b.blend * m.quality * m.length * m.frequency * m.canonical * m.coActivation + b.pinBoost,
      );
      expect(item.rankShift).toBe(item.rawRank - item.compositeRank);
    }
  });
});
