// Scope isolation (the spec's boundScope) on every read path: search fts / vector / hybrid,
// browse and get, for two teams, bound and unbound sessions, and tenants. A bound session's
// scope is authoritative: its scope args are ignored, and its saves are team-shared.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { MemoryBinding } from '../../src/mcp/index.js';
import { callErr, callInvalid, callOk } from '../helpers.js';
import {
  all,
  type Got,
  hashEmbedder,
  ids,
  type Item,
  type MemorySession,
  memorySession,
  save,
  type Saved,
  search,
  views,
} from './fixtures.js';

describe('scope isolation across two teams', () => {
  let s: MemorySession;
  let f: Record<'G' | 'T1' | 'T1A1' | 'T1A2' | 'T2' | 'T2A1', Item>;
  let universe: Item[];

  beforeEach(async () => {
    s = await memorySession({ embedder: hashEmbedder() });
    const seed = (label: string, scope: Record<string, string>): Promise<Item> =>
      save(s.client, {
        title: `${label} note`,
        content: `zebra fact ${label} for scope checks`,
        ...scope,
      });
    f = {
      G: await seed('global', {}),
      T1: await seed('team one shared', { scopeTeamId: 't1' }),
      T1A1: await seed('team one agent one', { scopeTeamId: 't1', scopeAgentId: 'a1' }),
      T1A2: await seed('team one agent two', { scopeTeamId: 't1', scopeAgentId: 'a2' }),
      T2: await seed('team two shared', { scopeTeamId: 't2' }),
      T2A1: await seed('team two agent one', { scopeTeamId: 't2', scopeAgentId: 'a1' }),
    };
    universe = Object.values(f);
    expect(f.T1A1).toMatchObject({ teamId: 't1', agentId: 'a1', tenantId: null });
    await s.core.embedWorker?.drain();
    expect(await s.core.embedWorker?.pending()).toBe(0);
  });
  afterEach(async () => s.close());

  it('unbound sessions see exactly the scope their args name, on every read path', async () => {
    const cases: Array<[Record<string, string>, Item[]]> = [
      [{}, [f.G]],
      [{ scopeTeamId: 't1' }, [f.G, f.T1]],
      [{ scopeTeamId: 't1', scopeAgentId: 'a1' }, [f.G, f.T1, f.T1A1]],
      [{ scopeTeamId: 't1', scopeAgentId: 'a2' }, [f.G, f.T1, f.T1A2]],
      [{ scopeTeamId: 't2' }, [f.G, f.T2]],
      [{ scopeTeamId: 't2', scopeAgentId: 'a1' }, [f.G, f.T2, f.T2A1]],
      [{ scopeAgentId: 'a1' }, [f.G]],
      [{ scopeTeamId: 't3' }, [f.G]],
    ];
    for (const [args, visible] of cases) {
      expect(await views(s.client, args, universe), JSON.stringify(args)).toEqual(
        all(ids(visible)),
      );
    }
  });

  it('bound sessions see their bound scope on every read path and ignore scope args', async () => {
    const spoofs = [
      {},
      { scopeTeamId: 't2' },
      { scopeTeamId: 't2', scopeAgentId: 'a2' },
      { scopeTeamId: 't1', scopeAgentId: 'a2' },
      { scopeAgentId: 'a1' },
    ];
    const cases: Array<[MemoryBinding, Item[]]> = [
      [{ scopeTeamId: 't1', scopeAgentId: 'a1' }, [f.G, f.T1, f.T1A1]],
      [{ scopeTeamId: 't1', scopeAgentId: 'a2' }, [f.G, f.T1, f.T1A2]],
      [{ scopeTeamId: 't1' }, [f.G, f.T1]],
      [{ scopeTeamId: 't2' }, [f.G, f.T2]],
      [{ scopeTeamId: 't2', scopeAgentId: 'a1' }, [f.G, f.T2, f.T2A1]],
    ];
    for (const [binding, visible] of cases) {
      const client = await s.connect(binding);
      for (const spoof of spoofs) {
        expect(
          await views(client, spoof, universe),
          `${JSON.stringify(binding)} + ${JSON.stringify(spoof)}`,
        ).toEqual(all(ids(visible)));
      }
    }
  });

  it('a search hit never names another team, whatever the query', async () => {
    const t1 = await s.connect({ scopeTeamId: 't1', scopeAgentId: 'a1' });
    for (const query of ['team two shared', 'team two agent one', 'agent two', 'zebra']) {
      for (const mode of ['fts', 'vector', 'hybrid']) {
        const found = await search(t1, { query, mode, limit: 100, scopeTeamId: 't2' });
        for (const hit of found.results) {
          expect(hit.teamId === null || hit.teamId === 't1', `${mode} ${query}`).toBe(true);
          expect(hit.agentId === null || hit.agentId === 'a1', `${mode} ${query}`).toBe(true);
        }
      }
    }
  });

  it('a bound save is tagged with the bound team only, whatever the args', async () => {
    const bound = await s.connect({ scopeTeamId: 't1', scopeAgentId: 'a1' });
    const out = await callOk<Saved>(bound, 'memory_save', {
      title: 'bound note',
      content: 'zebra fact saved by a bound agent',
      scopeTeamId: 't2',
      scopeAgentId: 'a2',
    });
    const saved = out.fact;
    expect(saved).toMatchObject({ teamId: 't1', agentId: null, tenantId: null });
    if (saved === undefined) throw new Error('no fact');
    await s.core.embedWorker?.drain();
    const everything = [...universe, saved];

    // Team-shared: every agent of t1 recalls it, bound or not; t2 never does.
    const peer = await s.connect({ scopeTeamId: 't1', scopeAgentId: 'a2' });
    expect(await views(peer, {}, everything)).toEqual(all(ids([f.G, f.T1, f.T1A2, saved])));
    expect(await views(s.client, { scopeTeamId: 't1' }, everything)).toEqual(
      all(ids([f.G, f.T1, saved])),
    );
    const t2 = await s.connect({ scopeTeamId: 't2', scopeAgentId: 'a1' });
    expect(await views(t2, {}, everything)).toEqual(all(ids([f.G, f.T2, f.T2A1])));
    expect(await views(s.client, { scopeTeamId: 't2', scopeAgentId: 'a2' }, everything)).toEqual(
      all(ids([f.G, f.T2])),
    );
  });

  it('a bound session ignores even malformed scope args; an unbound one refuses them', async () => {
    const bound = await s.connect({ scopeTeamId: 't1', scopeAgentId: 'a1' });
    const junk = { scopeTeamId: '', scopeAgentId: 42 };
    const out = await callOk<Saved>(bound, 'memory_save', {
      title: 'junk scope',
      content: 'zebra fact saved with junk scope args',
      ...junk,
    });
    expect(out.fact).toMatchObject({ teamId: 't1', agentId: null });
    const hits = await callOk<{ results: unknown[] }>(bound, 'memory_search', {
      query: 'zebra',
      ...junk,
    });
    expect(hits.results.length).toBeGreaterThan(0);
    await callOk(bound, 'memory_browse', junk);
    expect(await callInvalid(s.client, 'memory_browse', junk)).toMatch(/invalid args: scope/);
  });

  it('an agent-only binding saves privately to that agent, never into global memory', async () => {
    const bound = await s.connect({ scopeAgentId: 'a9' });
    const out = await callOk<Saved>(bound, 'memory_save', {
      title: 'agent note',
      content: 'okapi fact saved by an agent-only binding',
      scopeTeamId: 't2',
    });
    expect(out.fact).toMatchObject({ teamId: null, agentId: 'a9', tenantId: null });
    const mine = await search(bound, { query: 'okapi', limit: 10 });
    expect(mine.results.map((r) => r.id)).toEqual([out.fact?.id]);
    const other = await s.connect({ scopeAgentId: 'a1' });
    expect((await search(other, { query: 'okapi', limit: 10 })).results).toEqual([]);
    expect((await search(s.client, { query: 'okapi', limit: 10 })).results).toEqual([]);
  });

  it('a bound save dedupes against its own team only', async () => {
    const bound = await s.connect({ scopeTeamId: 't1', scopeAgentId: 'a1' });
    const sameTeam = await callOk<Saved>(bound, 'memory_save', {
      title: 'copy',
      content: f.T1.content,
    });
    expect(sameTeam).toMatchObject({ deduplicated: true, fact: { id: f.T1.id } });
    // T2's content, and a1's own private content, are other scopes: new team-shared facts.
    for (const source of [f.T2, f.T1A1]) {
      const out = await callOk<Saved>(bound, 'memory_save', {
        title: 'copy',
        content: source.content,
      });
      expect(out.deduplicated).toBeUndefined();
      expect(out.fact).toMatchObject({ teamId: 't1', agentId: null });
      expect(out.fact?.id).not.toBe(source.id);
    }
  });

  it('procedures: bound saves version per team; get never crosses teams', async () => {
    const t1 = await s.connect({ scopeTeamId: 't1', scopeAgentId: 'a1' });
    const t2 = await s.connect({ scopeTeamId: 't2' });
    const p1 = await save(t1, { procedureName: 'zebra-runbook', content: 'zebra step one' });
    const p2 = await save(t1, {
      procedureName: 'zebra-runbook',
      content: 'zebra step one and two',
      scopeTeamId: 't2',
    });
    const q1 = await save(t2, { procedureName: 'zebra-runbook', content: 'zebra other team' });
    expect([p1.version, p2.version, q1.version]).toEqual([1, 2, 1]);
    expect([p1.teamId, p2.teamId, q1.teamId]).toEqual(['t1', 't1', 't2']);

    const got = await callOk<Got>(t1, 'memory_get', { id: p1.id });
    expect(got.versions?.map((v) => v.id)).toEqual([p2.id, p1.id]);
    expect((await callErr(t1, 'memory_get', { id: q1.id })).text).toBe(`not found: ${q1.id}`);
    expect((await callErr(t2, 'memory_get', { id: p1.id })).text).toBe(`not found: ${p1.id}`);
    expect((await callErr(t2, 'memory_get', { id: p2.id, scopeTeamId: 't1' })).text).toBe(
      `not found: ${p2.id}`,
    );

    await s.core.embedWorker?.drain();
    const everything = [...universe, p1, p2, q1];
    // Only current versions are listed; the superseded p1 stays readable through get.
    const v1 = await views(t1, {}, everything);
    expect(v1.fts).toEqual(ids([f.G, f.T1, f.T1A1, p2]));
    expect(v1.browse).toEqual(ids([f.G, f.T1, f.T1A1, p2]));
    expect(v1.vector).toEqual(ids([f.G, f.T1, f.T1A1, p2]));
    expect(v1.get).toEqual(ids([f.G, f.T1, f.T1A1, p1, p2]));
    const v2 = await views(t2, {}, everything);
    expect(v2.hybrid).toEqual(ids([f.G, f.T2, q1]));
    expect(v2.get).toEqual(ids([f.G, f.T2, q1]));
  });
});

describe('tenant scope', () => {
  let s: MemorySession;
  beforeEach(async () => {
    s = await memorySession({ embedder: hashEmbedder() });
  });
  afterEach(async () => s.close());

  it('a tenant-bound save is visible to that tenant only, on every read path', async () => {
    const g = await save(s.client, { title: 'g', content: 'zebra global fact' });
    const t1 = await save(s.client, {
      title: 't1',
      content: 'zebra team fact',
      scopeTeamId: 't1',
    });
    const acme = await s.connect({ scopeTenantId: 'acme', scopeTeamId: 't1' });
    const mine = await save(acme, {
      title: 'acme',
      content: 'zebra tenant fact',
      scopeTeamId: 't9',
    });
    expect(mine).toMatchObject({ tenantId: 'acme', teamId: 't1', agentId: null });
    await s.core.embedWorker?.drain();
    const universe = [g, t1, mine];

    expect(await views(acme, {}, universe)).toEqual(all(ids([g, t1, mine])));
    const acmeAgent = await s.connect({
      scopeTenantId: 'acme',
      scopeTeamId: 't1',
      scopeAgentId: 'a9',
    });
    expect(await views(acmeAgent, {}, universe)).toEqual(all(ids([g, t1, mine])));
    const other = await s.connect({ scopeTenantId: 'other', scopeTeamId: 't1' });
    expect(await views(other, {}, universe)).toEqual(all(ids([g, t1])));
    const noTenant = await s.connect({ scopeTeamId: 't1' });
    expect(await views(noTenant, {}, universe)).toEqual(all(ids([g, t1])));
    expect(await views(s.client, { scopeTeamId: 't1' }, universe)).toEqual(all(ids([g, t1])));
    // A tenant-only binding sees the tenant's global items, not its teams'.
    const tenantOnly = await s.connect({ scopeTenantId: 'acme' });
    expect(await views(tenantOnly, {}, universe)).toEqual(all(ids([g])));
  });
});
