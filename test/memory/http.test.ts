// The memory server over Streamable HTTP (createHttpService on 127.0.0.1, port 0) with SDK
// clients: the tools and their error texts, and the signed attach URL minted by
// GET /api/mcp/config binding the session's scope (team, agent, tenant) on every read path;
// an edited URL is refused. Vector paths use a deterministic fake embedder.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { callErr, callInvalid, callOk, toolNames } from '../helpers.js';
import {
  httpSessions,
  initializeStatus,
  mintAttach,
  type Running,
  TOKEN,
} from '../http/helpers.js';
import {
  all,
  browse,
  type Got,
  hashEmbedder,
  ids,
  type Item,
  MEMORY_TOOLS,
  save,
  type Saved,
  search,
  views,
} from './fixtures.js';

const memoryUrl = (svc: Running): string => `${svc.base}/api/mcp/memory`;

describe('memory server over HTTP', () => {
  let svc: Running;
  const sessions = httpSessions();

  beforeEach(async () => {
    svc = await sessions.start({}, { embedder: hashEmbedder() });
  });
  afterEach(() => sessions.closeAll());

  const open = async (url: string, token: string): Promise<Client> =>
    (await sessions.connect(url, token)).client;

  /** Seeds one fact per scope through an unbound (master-token) session. */
  async function seed(client: Client) {
    const one = (title: string, scope: Record<string, string>): Promise<Item> =>
      save(client, { title, content: `zebra ${title} over http`, ...scope });
    const f = {
      G: await one('global', {}),
      T1: await one('team one', { scopeTeamId: 't1' }),
      T1A1: await one('agent one', { scopeTeamId: 't1', scopeAgentId: 'a1' }),
      T1A2: await one('agent two', { scopeTeamId: 't1', scopeAgentId: 'a2' }),
      T2: await one('team two', { scopeTeamId: 't2' }),
      T2A1: await one('team two agent one', { scopeTeamId: 't2', scopeAgentId: 'a1' }),
    };
    await svc.core.embedWorker?.drain();
    return { f, universe: Object.values(f) };
  }

  it('serves cairn-memory: every tool, the three search modes and the error texts', async () => {
    const client = await open(memoryUrl(svc), TOKEN);
    expect(client.getServerVersion()?.name).toBe('cairn-memory');
    expect(await toolNames(client)).toEqual(MEMORY_TOOLS);

    const fact = await save(client, {
      title: 'cache',
      content: 'The CDN caches assets for one hour.',
      tags: ['infra'],
      scopeTeamId: 'web',
    });
    const dup = await callOk<Saved>(client, 'memory_save', {
      title: 'cache',
      content: 'The CDN caches  assets for one hour.',
      scopeTeamId: 'web',
    });
    expect(dup).toMatchObject({ deduplicated: true, fact: { id: fact.id } });
    await svc.core.embedWorker?.drain();
    for (const [mode, basis] of [
      ['fts', 'fts-bm25'],
      ['vector', 'vector-cosine'],
      ['hybrid', 'rrf'],
    ] as const) {
      const found = await search(client, { query: 'CDN caches', mode, scopeTeamId: 'web' });
      expect(found.results[0], mode).toMatchObject({ id: fact.id, scoreBasis: basis });
    }
    expect((await search(client, { query: 'CDN' })).results).toEqual([]);
    const p = await save(client, {
      procedureName: 'purge',
      content: 'purge v1',
      scopeTeamId: 'web',
    });
    await save(client, { procedureName: 'purge', content: 'purge v2', scopeTeamId: 'web' });
    const got = await callOk<Got>(client, 'memory_get', { id: p.id, scopeTeamId: 'web' });
    expect(got.versions?.map((v) => v.version)).toEqual([2, 1]);
    expect((await browse(client, { scopeTeamId: 'web' })).map((i) => i.kind).sort()).toEqual([
      'fact',
      'procedure',
    ]);

    expect(await callInvalid(client, 'memory_save', { content: 'untitled' })).toMatch(
      /invalid args: title: /,
    );
    expect(await callInvalid(client, 'memory_search', { query: 'x', limit: 0 })).toMatch(
      /invalid args: limit: /,
    );
    expect(await callInvalid(client, 'memory_browse', { limit: 201 })).toMatch(
      /invalid args: limit: /,
    );
    const secret = `xoxb-${'123456789012'}-${'1234567890123'}-${'aB3dE6gH9jK2mN5pQ8sT1vW4'}`;
    const declined = await callErr(client, 'memory_save', { title: 'slack', content: secret });
    expect(declined.text).toMatch(/declined/);
    expect(declined.text).not.toContain(secret);
    expect((await callErr(client, 'memory_get', { id: 'ghost' })).text).toBe('not found: ghost');
  });

  it('a signed attach URL binds the team on every read path; scope args are ignored', async () => {
    const master = await open(memoryUrl(svc), TOKEN);
    const { f, universe } = await seed(master);

    const team = await mintAttach(svc, 'memory', 'scopeTeamId=t1');
    const parsed = new URL(team.url);
    expect(parsed.pathname).toBe('/api/mcp/memory');
    expect(parsed.searchParams.get('scopeTeamId')).toBe('t1');
    expect(parsed.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const t1 = await open(team.url, team.token);
    for (const spoof of [{}, { scopeTeamId: 't2' }, { scopeTeamId: 't2', scopeAgentId: 'a1' }]) {
      expect(await views(t1, spoof, universe), JSON.stringify(spoof)).toEqual(
        all(ids([f.G, f.T1])),
      );
    }

    const agent = await mintAttach(svc, 'memory', 'scopeTeamId=t1&scopeAgentId=a1');
    const a1 = await open(agent.url, agent.token);
    expect(await views(a1, { scopeTeamId: 't2', scopeAgentId: 'a2' }, universe)).toEqual(
      all(ids([f.G, f.T1, f.T1A1])),
    );

    // A bound save is tagged with the bound team only: team-shared, never t2.
    const out = await callOk<Saved>(a1, 'memory_save', {
      title: 'bound',
      content: 'zebra saved over a bound attach',
      scopeTeamId: 't2',
      scopeAgentId: 'a2',
    });
    expect(out.fact).toMatchObject({ teamId: 't1', agentId: null, tenantId: null });
    await svc.core.embedWorker?.drain();
    const shared = out.fact as Item;
    const everything = [...universe, shared];
    expect(await views(t1, {}, everything)).toEqual(all(ids([f.G, f.T1, shared])));
    const t2 = await mintAttach(svc, 'memory', 'scopeTeamId=t2');
    const t2Client = await open(t2.url, t2.token);
    expect(await views(t2Client, { scopeTeamId: 't1' }, everything)).toEqual(all(ids([f.G, f.T2])));
    // Unbound (master token, no params) uses the args.
    expect(await views(master, { scopeTeamId: 't1', scopeAgentId: 'a2' }, everything)).toEqual(
      all(ids([f.G, f.T1, f.T1A2, shared])),
    );
  });

  it('an edited attach URL is refused for the scoped token; with the master token it is unbound', async () => {
    const { url, token } = await mintAttach(svc, 'memory', 'scopeTeamId=t1');
    expect(await initializeStatus(url, token)).toBe(200);
    const edits: Record<string, (q: URLSearchParams) => void> = {
      'change scopeTeamId': (q) => q.set('scopeTeamId', 't2'),
      'drop scopeTeamId': (q) => q.delete('scopeTeamId'),
      'add scopeAgentId': (q) => q.set('scopeAgentId', 'a1'),
      'add scopeTenantId': (q) => q.set('scopeTenantId', 'acme'),
      'drop sig': (q) => q.delete('sig'),
      'forge sig': (q) => q.set('sig', 'forged'),
    };
    for (const [what, edit] of Object.entries(edits)) {
      const edited = new URL(url);
      edit(edited.searchParams);
      expect(await initializeStatus(edited.toString(), token), what).toBe(401);
    }
    // The tasks server's signature does not open memory (the server name is signed).
    const tasks = new URL(url);
    tasks.pathname = '/api/mcp/tasks';
    expect(await initializeStatus(tasks.toString(), token)).toBe(401);

    // Master token + a widened URL: served unbound (args rule), with a warning.
    const master = await open(memoryUrl(svc), TOKEN);
    const { f, universe } = await seed(master);
    const widened = new URL(url);
    widened.searchParams.set('scopeTeamId', 't2');
    const unbound = await open(widened.toString(), TOKEN);
    expect(await views(unbound, {}, universe)).toEqual(all(ids([f.G])));
    expect(await views(unbound, { scopeTeamId: 't2' }, universe)).toEqual(all(ids([f.G, f.T2])));
    const warnings = svc.logLines.filter(
      (l) => l['level'] === 40 && String(l['msg']).includes('missing or wrong signature'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ server: 'memory' });
  });

  it('scopeTenantId rides the signed URL: saves carry the tenant, other tenants never see them', async () => {
    const master = await open(memoryUrl(svc), TOKEN);
    const g = await save(master, { title: 'g', content: 'zebra global over http' });
    const acme = await mintAttach(svc, 'memory', 'scopeTenantId=acme&scopeTeamId=t1');
    expect(new URL(acme.url).searchParams.get('scopeTenantId')).toBe('acme');
    const acmeClient = await open(acme.url, acme.token);
    const mine = await save(acmeClient, { title: 'acme', content: 'zebra tenant fact' });
    expect(mine).toMatchObject({ tenantId: 'acme', teamId: 't1', agentId: null });
    await svc.core.embedWorker?.drain();
    const universe = [g, mine];
    expect(await views(acmeClient, {}, universe)).toEqual(all(ids([g, mine])));

    const other = await mintAttach(svc, 'memory', 'scopeTenantId=other&scopeTeamId=t1');
    expect(await views(await open(other.url, other.token), {}, universe)).toEqual(all(ids([g])));
    const noTenant = await mintAttach(svc, 'memory', 'scopeTeamId=t1');
    expect(await views(await open(noTenant.url, noTenant.token), {}, universe)).toEqual(
      all(ids([g])),
    );
    expect(await views(master, { scopeTeamId: 't1' }, universe)).toEqual(all(ids([g])));
  });
});
