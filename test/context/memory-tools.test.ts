// The memory family and search_memory of cairn-context through a real SDK client: store_memory
// (scrubbed, provenance recorded, key idempotency), get_memories (ids not found named),
// list_memories (empty vs filtered vs no match), memory_timeline (anchor, depths, window),
// inject_context (within budget by the tokenizer's count, what it left out and why),
// search_memory (observations and facts, tags, session_id, min_score), refusals as tool errors
// naming the field, and a missing provenance field as JSON-RPC -32602.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from 'gpt-tokenizer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type {
  GotObservations,
  InjectedContext,
  MemorySearchResult,
  ObservationList,
  ObservationTimeline,
  StoredObservation,
} from '../../src/activity/observations/index.js';
import type { Core } from '../../src/core/index.js';
import { createContextServer, PROVENANCE_META_KEY } from '../../src/mcp/index.js';
import { callInvalid, callRpcInvalid, linkedClient, tempCore } from '../helpers.js';
import { callContext, discoveryOf, FULL_ENV } from './fixtures.js';

const TOKEN = `ghp_${'Zx9Yw8Vu7T'.repeat(3)}qrstuv`;

describe('cairn-context: the memory family and search_memory', () => {
  let core: Core;
  let client: Client;
  let close: () => Promise<void>;
  let now: number;

  beforeEach(async () => {
    now = Date.parse('2026-03-01T10:00:00Z');
    const t = await tempCore({
      embedder: null,
      clock: () => (now += 1000),
      provenance: discoveryOf({ ...FULL_ENV, CLAUDE_SESSION_ID: 'sess-a' }, '/tmp'),
    });
    core = t.core;
    client = await linkedClient(createContextServer(core));
    close = async () => {
      await client.close();
      await t.close();
    };
  });
  afterEach(() => close());

  const store = (resource: string, data: Record<string, unknown>, more = {}) =>
    callContext<StoredObservation>(client, 'store_memory', { resource, data, ...more });

  it('store_memory scrubs secrets, records the provenance and defaults the session to it', async () => {
    const { data, meta, text } = await store('error_pattern', {
      content: `npm publish failed: token ${TOKEN} expired`,
      tags: ['release'],
    });
    expect(data.observation.content).not.toContain(TOKEN);
    expect(data.observation.content).toContain('[REDACTED');
    expect(data.observation.sessionId).toBe('sess-a');
    expect(data.observation.provenance).toMatchObject({
      operator_id: 'ann',
      model_id: 'test-model',
    });
    expect(meta?.[PROVENANCE_META_KEY]).toMatchObject({ session_id: 'sess-a' });
    expect(text).toMatch(/^Stored error_pattern /);
    const raw = JSON.stringify(await core.store.all('SELECT * FROM memory_items'));
    expect(raw).not.toContain(TOKEN);
    const declined = (await client.callTool({
      name: 'store_memory',
      arguments: { resource: 'observation', data: { content: TOKEN } },
    })) as CallToolResult;
    expect(declined.isError).toBe(true);
  });

  it('a key stores once; new content under the key replaces the old', async () => {
    const a = await store('session', { content: 'did X', key: 'summary:sess-a' });
    const b = await store('session', { content: 'did X', key: 'summary:sess-a' });
    expect(b.data).toMatchObject({
      deduplicated: true,
      observation: { id: a.data.observation.id },
    });
    const c = await store('session', { content: 'did X and Y', key: 'summary:sess-a' });
    expect(c.data.replaced).toBe(a.data.observation.id);
    const got = await callContext<GotObservations & { otherType: string[] }>(
      client,
      'get_memories',
      {
        ids: [a.data.observation.id, c.data.observation.id, 'nope'],
      },
    );
    expect(got.data.observations.map((o) => o.content)).toEqual(['did X and Y']);
    expect(got.data.missing).toEqual([a.data.observation.id, 'nope']);
    expect(got.text).toContain('Not found: ');
    const typed = await callContext<{ otherType: string[] }>(client, 'get_memories', {
      ids: [c.data.observation.id],
      resource: 'execution',
    });
    expect(typed.data.otherType).toEqual([c.data.observation.id]);
  });

  it('list_memories says empty, filtered out and no match apart', async () => {
    const list = (args: Record<string, unknown>) =>
      callContext<ObservationList>(client, 'list_memories', args);
    expect((await list({})).data.status).toBe('empty');
    await store('execution', { content: 'vitest run: 3 failed', tags: ['ci'] });
    await store('observation', { content: 'the cache lives in .cache', session_id: 'sess-b' });
    expect((await list({ resource: 'quality_gate' })).data.status).toBe('filtered_out');
    expect((await list({ tags: ['ci', 'other'] })).text).toMatch(/^FILTERED OUT/);
    expect((await list({ query: 'kubernetes' })).data.status).toBe('no_match');
    expect((await list({ session_id: 'sess-b' })).data.observations).toHaveLength(1);
    const all = await list({ limit: 1 });
    expect(all.data).toMatchObject({ status: 'ok', matching: 2, stored: 2, truncated: true });
    expect(all.data.observations[0]?.content).toBe('the cache lives in .cache');
  });

  it('memory_timeline: the anchor with depths, the window, and the newest without an anchor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1)
      ids.push((await store('execution', { content: `step ${i}` })).data.observation.id);
    const t = await callContext<ObservationTimeline>(client, 'memory_timeline', {
      anchor_id: ids[3],
      depth_before: 2,
      depth_after: 1,
    });
    const contents = (os: { content: string }[]) => os.map((o) => o.content);
    expect(contents(t.data.before)).toEqual(['step 1', 'step 2']);
    expect(t.data.anchor?.content).toBe('step 3');
    expect(contents(t.data.after)).toEqual(['step 4']);
    const w = await callContext<ObservationTimeline>(client, 'memory_timeline', {
      anchor_id: ids[3],
      window_secs: 2,
    });
    expect(contents(w.data.before)).toEqual(['step 1', 'step 2']);
    expect(contents(w.data.after)).toEqual(['step 4', 'step 5']);
    expect(w.data.window).not.toBeNull();
    const newest = await callContext<ObservationTimeline>(client, 'memory_timeline', {
      depth_before: 2,
    });
    expect(contents(newest.data.before)).toEqual(['step 6', 'step 7']);
    const lonely = await callContext<ObservationTimeline>(client, 'memory_timeline', {
      anchor_id: ids[0],
      resource: 'quality_gate',
    });
    expect(lonely.data.status).toBe('anchor_only');
    const missing = (await client.callTool({
      name: 'memory_timeline',
      arguments: { anchor_id: 'nope' },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain('anchor_id');
  });

  it('inject_context stays within max_tokens and names what it left out', async () => {
    for (let i = 0; i < 12; i += 1) {
      await store(i % 3 === 0 ? 'error_pattern' : 'observation', {
        content: `finding ${i}: ${'the migration needs a backfill before the index. '.repeat(4)}`,
      });
    }
    await store('error_pattern', { content: 'other project thing', project_id: 'x/y' });
    const { data, text } = await callContext<InjectedContext>(client, 'inject_context', {
      max_tokens: 200,
      observation_types: ['error_pattern'],
      project_id: 'acme/app',
    });
    expect(countTokens(data.block)).toBeLessThanOrEqual(200);
    expect(countTokens(text)).toBeLessThanOrEqual(200);
    const reasons = Object.fromEntries(data.omitted.map((o) => [o.reason, o.count]));
    expect(reasons).toMatchObject({ filtered_by_type: 8, other_project: 1 });
    expect(data.included.length + (reasons['over_budget'] ?? 0)).toBe(4);
    const tiny = await callContext<InjectedContext>(client, 'inject_context', { max_tokens: 1 });
    expect(tiny.data).toMatchObject({ block: '', tokens: 0, included: [] });
    expect(tiny.text).toMatch(/^NOTHING INJECTED/);
    expect(
      await callInvalid(client, 'inject_context', {
        resource: 'session',
        observation_types: ['execution'],
      }),
    ).toMatch(/resource/);
  });

  it('search_memory finds observations and facts, with tags, session_id and min_score', async () => {
    await store('error_pattern', { content: 'the parser rejects tabs', tags: ['parser'] });
    await store('observation', {
      content: 'the parser rejects tabs here too',
      session_id: 'sess-z',
    });
    await core.memory.save({
      title: 'Parser',
      content: 'the parser wants spaces, not tabs',
      scope: {},
    });
    const search = (args: Record<string, unknown>) =>
      callContext<MemorySearchResult>(client, 'search_memory', args);
    const all = await search({ query: 'parser tabs' });
    expect(all.data.results.map((h) => h.kind).sort()).toEqual([
      'fact',
      'observation',
      'observation',
    ]);
    expect((await search({ query: 'parser', tags: ['parser'] })).data.results).toHaveLength(1);
    const z = await search({ query: 'parser', session_id: 'sess-z' });
    expect(z.data.results.map((h) => [h.kind, h.sessionId])).toEqual([['observation', 'sess-z']]);
    expect((await search({ query: 'parser', min_score: 1 })).data.status).toBe('below_min_score');
    expect((await search({ query: 'parser', tags: ['none'] })).data.status).toBe('filtered_out');
    expect((await search({ query: 'zebra' })).data.status).toBe('no_match');
    expect(await callInvalid(client, 'search_memory', { query: 'x', resource: 'code' })).toMatch(
      /resource/,
    );
  });

  it('refuses bad arguments as tool errors naming the field', async () => {
    expect(
      await callInvalid(client, 'store_memory', { resource: 'nope', data: { content: 'x' } }),
    ).toMatch(/resource/);
    expect(
      await callInvalid(client, 'store_memory', { resource: 'observation', data: {} }),
    ).toMatch(/data\.content/);
    expect(
      await callInvalid(client, 'store_memory', {
        resource: 'observation',
        data: { content: 'x', evil: 1 },
      }),
    ).toMatch(/unknown fields \(evil\)/);
    expect(
      await callInvalid(client, 'store_memory', {
        resource: 'observation',
        data: { content: 'x', session_id: 'a\u0000b' },
      }),
    ).toMatch(/data\.session_id/);
    expect(await callInvalid(client, 'get_memories', { ids: [] })).toMatch(/ids/);
    expect(await callInvalid(client, 'memory_timeline', { depth_before: 101 })).toMatch(
      /depth_before/,
    );
    expect(await callInvalid(client, 'inject_context', { max_tokens: 0 })).toMatch(/max_tokens/);
  });

  it('a missing provenance field is JSON-RPC -32602 and nothing is stored', async () => {
    const t = await tempCore({ embedder: null, provenance: discoveryOf({ USER: 'ann' }, '/tmp') });
    const bare = await linkedClient(createContextServer(t.core));
    try {
      const message = await callRpcInvalid(bare, 'store_memory', {
        resource: 'observation',
        data: { content: 'x' },
      });
      expect(message).toMatch(/Missing execution provenance for 'memory': model_id/);
      expect((await t.core.observations.list({})).status).toBe('empty');
    } finally {
      await bare.close();
      await t.close();
    }
  });
});
