// Observation memory without a transport (core.observations over a fresh store, the real
// scrubber, a stepping clock): scrubbing and provenance on write, key idempotency, get's
// missing ids, list honesty, the timeline's anchor and window, inject's budget, and search over
// observations and facts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { countTokens } from 'gpt-tokenizer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createMemory, createScrubber, type Memory } from '../../memory/index.js';
import { openSqliteStore, type Store } from '../../store/index.js';
import type { Provenance } from '../fields.js';
import { createObservations, type Observations } from './service.js';

const PROV: Provenance = {
  session_id: 's1',
  repo_path: '/w/repo',
  repo_id: 'r1',
  project_id: 'acme/repo',
  worktree_id: 'main',
  operator_id: 'ann',
  machine_id: 'host',
  agent_program: 'test',
  model_id: 'm',
  delegated: false,
  timestamp: 1_760_000_000,
};
const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;

describe('core.observations', () => {
  let core: { observations: Observations; memory: Memory; store: Store };
  let close: () => Promise<void>;
  let now: number;

  beforeEach(async () => {
    now = Date.parse('2026-01-01T00:00:00Z');
    const clock = () => (now += 1000);
    const dir = mkdtempSync(join(tmpdir(), 'cairn-observations-'));
    const store = await openSqliteStore(join(dir, 'cairn.db'));
    const scrubber = createScrubber();
    const memory = createMemory(store, { scrubber, clock });
    const observations = createObservations(store, { memory, scrubber, vectors: false, clock });
    core = { observations, memory, store };
    close = async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    };
  });
  afterEach(() => close());

  const store = (content: string, more: Record<string, unknown> = {}) =>
    core.observations.store({ type: 'observation', content, provenance: PROV, ...more });

  it('scrubs every text it stores and records the provenance and the scoping ids', async () => {
    const { observation } = await store(`deploy used ${TOKEN} today`, {
      title: `title ${TOKEN}`,
      tags: [`t-${TOKEN}`, 'deploy'],
      metadata: { nested: [{ note: `key ${TOKEN}` }] },
    });
    const raw = JSON.stringify(await core.store.all('SELECT * FROM memory_items'));
    expect(raw).not.toContain(TOKEN);
    expect(observation.content).toContain('[REDACTED');
    expect(JSON.stringify(observation.metadata)).not.toContain(TOKEN);
    expect(observation).toMatchObject({ sessionId: 's1', repoId: 'r1', projectId: 'acme/repo' });
    expect(observation.provenance).toMatchObject({ operator_id: 'ann', session_id: 's1' });
    await expect(store(TOKEN)).rejects.toThrow(/nothing but secrets/);
  });

  it('a key makes a write idempotent, and new content under the key replaces the old', async () => {
    const a = await store('summary one', { key: 'session-summary:s1', type: 'session' });
    const again = await store('summary one', { key: 'session-summary:s1', type: 'session' });
    expect(again).toMatchObject({ deduplicated: true, observation: { id: a.observation.id } });
    const b = await store('summary two', { key: 'session-summary:s1', type: 'session' });
    expect(b.replaced).toBe(a.observation.id);
    const listed = await core.observations.list({ types: ['session'] });
    expect(listed.observations.map((o) => o.content)).toEqual(['summary two']);
    expect((await core.observations.get([a.observation.id])).missing).toEqual([a.observation.id]);
  });

  it('list says empty, filtered out and no match apart', async () => {
    expect((await core.observations.list({})).status).toBe('empty');
    await store('the build failed on node 18', { type: 'error_pattern', tags: ['ci'] });
    expect((await core.observations.list({ tags: ['nope'] })).status).toBe('filtered_out');
    expect((await core.observations.list({ sessionId: 'other' })).status).toBe('filtered_out');
    expect((await core.observations.list({ query: 'kubernetes' })).status).toBe('no_match');
    const hit = await core.observations.list({ query: 'build failed', tags: ['ci'] });
    expect(hit.status).toBe('ok');
    expect(hit.observations).toHaveLength(1);
  });

  it('the timeline walks around the anchor and the window cuts it to ±window_secs', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 9; i += 1) ids.push((await store(`step ${i}`)).observation.id);
    const t = await core.observations.timeline({ anchorId: ids[4], depthBefore: 2, depthAfter: 3 });
    expect(t.before.map((o) => o.content)).toEqual(['step 2', 'step 3']);
    expect(t.anchor?.content).toBe('step 4');
    expect(t.after.map((o) => o.content)).toEqual(['step 5', 'step 6', 'step 7']);
    // The clock steps one second per call: ±1 s keeps only the direct neighbours.
    const w = await core.observations.timeline({ anchorId: ids[4], windowSecs: 1, depthBefore: 5 });
    expect(w.before.map((o) => o.content)).toEqual(['step 3']);
    expect(w.after.map((o) => o.content)).toEqual(['step 5']);
    const newest = await core.observations.timeline({ depthBefore: 3 });
    expect(newest.before.map((o) => o.content)).toEqual(['step 6', 'step 7', 'step 8']);
    await expect(core.observations.timeline({ anchorId: 'nope' })).rejects.toThrow(/anchor_id/);
  });

  it('inject fits the budget and says what it left out and why', async () => {
    for (let i = 0; i < 30; i += 1) {
      await store(`lesson ${i}: ${'retry the flaky test with a clean cache. '.repeat(5)}`, {
        type: i % 2 === 0 ? 'error_pattern' : 'execution',
      });
    }
    await store('elsewhere', { projectId: 'other/proj', type: 'error_pattern' });
    const out = await core.observations.inject({
      maxTokens: 300,
      types: ['error_pattern'],
      projectId: 'acme/repo',
      sessionId: 's1',
    });
    expect(countTokens(out.block)).toBeLessThanOrEqual(300);
    expect(out.tokens).toBe(countTokens(out.block));
    expect(out.included.length).toBeGreaterThan(0);
    expect(out.included.every((i) => i.type === 'error_pattern')).toBe(true);
    const reasons = Object.fromEntries(out.omitted.map((o) => [o.reason, o.count]));
    expect(reasons).toMatchObject({ filtered_by_type: 15, other_project: 1 });
    expect(reasons['over_budget']).toBe(15 - out.included.length);
  });

  it('search finds observations and facts, narrowed by tags and session', async () => {
    await store('the parser chokes on tabs', { tags: ['parser'] });
    await store('the parser chokes on tabs in session two', { sessionId: 's2' });
    await core.memory.save({
      title: 'Parser note',
      content: 'the parser needs tabs expanded',
      scope: {},
    });
    const all = await core.observations.search({ query: 'parser tabs', scope: {} });
    expect(all.results.map((h) => h.kind).sort()).toEqual(['fact', 'observation', 'observation']);
    const tagged = await core.observations.search({ query: 'parser', tags: ['parser'], scope: {} });
    expect(tagged.results).toHaveLength(1);
    const s2 = await core.observations.search({ query: 'parser', sessionId: 's2', scope: {} });
    expect(s2.results.map((h) => h.sessionId)).toEqual(['s2']);
    const high = await core.observations.search({ query: 'parser', minScore: 0.999, scope: {} });
    expect(high.status).toBe('below_min_score');
  });
});
