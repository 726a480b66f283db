// intent_search, query_plan, memory_retrieve's routes, find_similar, timeline and session_log
// on a real store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { stub, type VaultFixture, vaultFixture } from '../../../test/vault/store-fixture.js';
import { INTERNAL_COLLECTION } from '../../store/index.js';
import { findSimilar, sessionLog, timelineOf } from './neighbours.js';
import { memoryRetrieve } from './retrieve.js';
import { intentSearch, queryPlan } from './routes.js';

let f: VaultFixture;
beforeEach(async () => {
  f = await vaultFixture();
  await f.add({
    path: 'decisions/queue.md',
    title: 'Queue decision',
    text: 'We chose retries with backoff for the ingest queue because the dead letter queue paged too often.',
    type: 'decision',
    ageDays: 30,
  });
  await f.add({
    path: 'notes/lunch.md',
    title: 'Lunch',
    text: 'Tacos on friday near the office.',
    ageDays: 20,
  });
  await f.add({
    path: 'sessions/s1.md',
    title: 'Session one',
    text: 'Worked on the queue retry budget.',
    type: 'session',
    ageDays: 15,
  });
  await f.add({
    path: 'notes/budget.md',
    title: 'Retry budget',
    text: 'The retry budget caps queue retries at five.',
    ageDays: 12,
  });
  await f.add({
    path: 'sessions/s2.md',
    title: 'Session two',
    text: 'Left off at the lunch menu.',
    type: 'session',
    ageDays: 5,
  });
  await f.add({
    path: 'observations/o1.md',
    title: 'Queue observation',
    text: 'Observed the queue retry storm after the deploy.',
    type: 'observation',
    collection: INTERNAL_COLLECTION,
    ageDays: 14,
  });
});
afterEach(() => f.close());

describe('intent_search', () => {
  it('classifies, is unfiltered, and says the hop found no causal edges', async () => {
    const r = await intentSearch(f.deps, {
      query: 'why did we choose retries for the queue',
      limit: 5,
      graph: true,
      filter: f.filter(),
    });
    expect(r).toMatchObject({ intent: 'WHY', intentSource: 'classified' });
    expect(r.results[0]?.path).toBe('decisions/queue.md');
    expect(r.results.map((h) => h.path)).toContain('observations/o1.md');
    expect(r.stages.graphTraversal).toMatch(/^ran: no eligible causal edges from the \d+ anchor/);
    expect(r.stages.mpfp).toMatch(/^not run: /);
    const forced = await intentSearch(f.deps, {
      query: 'queue',
      limit: 5,
      forceIntent: 'WHEN',
      graph: false,
      filter: f.filter(),
    });
    expect(forced).toMatchObject({ intent: 'WHEN', intentSource: 'forced', cue: 'force_intent' });
    expect(forced.stages.graphTraversal).toMatch(/^disabled/);
  });
});

describe('query_plan', () => {
  it('answers each clause and fuses them', async () => {
    const r = await queryPlan(f.deps, {
      query: 'how are queue retries budgeted; where is the taco lunch',
      limit: 5,
      compact: true,
      filter: f.filter(),
    });
    expect(r.clauses.map((c) => c.clause)).toEqual([
      'how are queue retries budgeted',
      'where is the taco lunch',
    ]);
    expect(r.clauses[1]?.results[0]?.path).toBe('notes/lunch.md');
    const paths = r.results.map((h) => h.path);
    expect(paths).toContain('notes/lunch.md');
    expect(paths).toContain('notes/budget.md');
    expect(paths).not.toContain('observations/o1.md');
  });
});

describe('memory_retrieve', () => {
  it('routes by classification and by mode', async () => {
    const route = async (query: string, mode = 'auto') =>
      memoryRetrieve(f.deps, {
        query,
        mode: mode as 'auto',
        limit: 5,
        compact: true,
        filter: f.filter(),
      });
    expect((await route('what did we do in the last session')).route).toBe('timeline');
    const timeline = await route('what did we do in the last session');
    expect((timeline.results[0] as { path: string }).path).toBe('sessions/s2.md');
    const causal = await route('why did we pick backoff for the queue');
    expect(causal.route).toBe('causal');
    expect(causal.results.map((r) => (r as { path: string }).path)).toContain('observations/o1.md');
    const discovery = await route('notes similar to the retry budget');
    expect(discovery.route).toBe('discovery');
    expect(discovery.detail['reference']).toMatchObject({ path: 'notes/budget.md' });
    expect((await route('queue retry budget; taco lunch')).route).toBe('complex');
    const hybrid = await route('retry budget');
    expect(hybrid).toMatchObject({ route: 'hybrid', routeSource: 'auto' });
    const semantic = await route('retry budget', 'semantic');
    expect(semantic).toMatchObject({
      route: 'semantic',
      routeSource: 'mode',
      detail: { scoreBasis: 'vector-cosine' },
    });
  });
});

describe('find_similar, timeline, session_log', () => {
  it('finds neighbours without the reference, internal only when the reference is', async () => {
    const r = await findSimilar(f.deps, 'default', 'notes/budget.md', 10, false);
    const paths = r.results.map((h) => h.path);
    expect(paths).not.toContain('notes/budget.md');
    expect(paths).not.toContain('observations/o1.md');
    expect(r.scoreBasis).toBe('vector-cosine');
    const internal = await findSimilar(f.deps, 'default', 'observations/o1.md', 10, false);
    expect(internal.includeInternal).toBe(true);
  });

  it('queries with the stored vector of the reference, embedding it only while it has none', async () => {
    const id = await f.add({ path: 'notes/tacos.md', text: 'Taco lunch menu for friday food.' });
    const stored = await f.store.vaultIndex.documentVector('stub:2', id);
    expect(stored === null ? null : [...stored]).toEqual([
      ...((await stub.embed(['Taco lunch menu for friday food.']))[0] ?? []),
    ]);
    const r = await findSimilar(f.deps, 'default', 'notes/tacos.md', 1, false);
    expect(r.referenceVector).toBe('stored');
    expect(r.results.map((h) => h.path)).toEqual(['notes/lunch.md']);
    expect(await f.store.vaultIndex.documentVector('other:2', id)).toBeNull();
    let embedded = 0;
    const counting = {
      model: 'other:2',
      embed: (texts: readonly string[]) => ((embedded += texts.length), stub.embed(texts)),
    };
    const fresh = await findSimilar(
      { ...f.deps, embedder: counting },
      'default',
      'notes/tacos.md',
      1,
      false,
    );
    expect(fresh.referenceVector).toBe('embedded');
    expect(embedded).toBe(1);
  });

  it('shows the neighbours in time and the sessions with what changed', async () => {
    const [s1] = await f.store.vaultIndex.documentsAtPath('default', 'sessions/s1.md');
    const t = await timelineOf(f.deps, 'default', `#${s1?.docid}`, {
      before: 1,
      after: 1,
      sameCollection: false,
    });
    expect(t.before.map((e) => e.path)).toEqual(['notes/lunch.md']);
    expect(t.after.map((e) => e.path)).toEqual(['observations/o1.md']);
    const log = await sessionLog(f.deps, 'default', 10);
    expect(log.sessions.map((s) => s.path)).toEqual(['sessions/s2.md', 'sessions/s1.md']);
    expect(log.sessions[0]?.changes.map((c) => c.path)).toEqual([
      'notes/budget.md',
      'observations/o1.md',
    ]);
  });
});
