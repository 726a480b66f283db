// The memory server over stdio: the real bin spawned as a child process (CAIRN_EMBEDDINGS=none,
// so vector and hybrid degrade) and driven by an SDK client; the --team/--agent/--tenant
// binding; and one run with the default local model, checking that stdout stays pure JSON-RPC
// while the model loads in the background.
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { call, pollUntil } from '../concurrency/spawn.js';
import { callOk, tempDir, type TempDir, toolNames } from '../helpers.js';
import {
  browseIds,
  type Found,
  type Got,
  type Item,
  MEMORY_TOOLS,
  save,
  type Saved,
  search,
} from './fixtures.js';
import { type MemoryProcess, spawnMemory, spawnRaw, toolJson, type RawProcess } from './spawn.js';

const GH_TOKEN = `ghp_${'Zy9Xw8Vu7Ts6Rq5Po4Nm'}${'3Lk2Jh1Gf0EdCbAa'}`;

describe('memory server over stdio', () => {
  let dir: TempDir;
  let db: string;
  let home: string;
  const procs: MemoryProcess[] = [];
  const raws: RawProcess[] = [];

  beforeEach(() => {
    dir = tempDir('cairn-memory-stdio-');
    db = join(dir.path, 'cairn.db');
    home = join(dir.path, 'home');
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.close()));
    for (const r of raws.splice(0)) r.kill();
    dir.cleanup();
  });

  const start = async (args: string[] = []): Promise<MemoryProcess> => {
    const p = await spawnMemory({ db, home, args });
    procs.push(p);
    return p;
  };

  it('serves cairn-memory: save, search (degraded without embeddings), browse, get', async () => {
    const { client } = await start();
    expect(client.getServerVersion()?.name).toBe('cairn-memory');
    expect(await toolNames(client)).toEqual(MEMORY_TOOLS);

    const fact = await save(client, {
      title: 'runtime',
      content: 'The API runs on Node 20 behind nginx.',
      tags: ['infra'],
    });
    expect(fact).toMatchObject({ kind: 'fact', title: 'runtime', tags: ['infra'], teamId: null });
    const dup = await callOk<Saved>(client, 'memory_save', {
      title: 'runtime',
      content: ' The API runs on Node 20  behind nginx. ',
    });
    expect(dup).toMatchObject({ deduplicated: true, fact: { id: fact.id } });

    const fts = await search(client, { query: 'nginx (' });
    expect(fts.degraded).toBeUndefined();
    expect(fts.results[0]).toMatchObject({
      id: fact.id,
      scoreBasis: 'fts-bm25',
      ranks: { fts: 1, vector: null },
    });
    expect(fts.results[0]?.snippet).toMatch(/nginx/);
    for (const mode of ['vector', 'hybrid']) {
      const degraded = await search(client, { query: 'nginx', mode });
      expect(degraded.degraded, mode).toBe(true);
      expect(degraded.degradedReason, mode).toMatch(/\S/);
      expect(degraded.results.map((r) => r.id)).toEqual([fact.id]);
    }

    const versions: Item[] = [];
    for (const content of ['step one', 'step one, two', 'step one, two, three']) {
      versions.push(await save(client, { procedureName: 'bootstrap', content }));
    }
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3]);
    expect(await browseIds(client)).toEqual([fact.id, versions[2]?.id].sort());
    const got = await callOk<Got>(client, 'memory_get', { id: versions[0]?.id });
    expect(got.versions?.map((v) => v.version)).toEqual([3, 2, 1]);
    const step = await search(client, { query: 'step' });
    expect(step.results.map((r) => r.id)).toEqual([versions[2]?.id]);
  }, 120_000);

  it('answers with the same error texts over stdio', async () => {
    const { client } = await start();
    const rpc = async (name: string, args: Record<string, unknown>): Promise<string> => {
      const out = await call(client, name, args);
      if (out.kind !== 'tool-error')
        throw new Error(`expected invalid args, got ${JSON.stringify(out)}`);
      expect(out.meta).toEqual({ denied: { reason: 'invalid_args' } });
      return out.text;
    };
    expect(await rpc('memory_save', { content: 'no title' })).toMatch(/invalid args: title: /);
    expect(await rpc('memory_save', { title: 't', content: ' ' })).toMatch(
      /invalid args: content: /,
    );
    expect(await rpc('memory_save', { title: 't', content: 'x'.repeat(65_537) })).toMatch(
      /invalid args: content: /,
    );
    expect(await rpc('memory_save', { title: 't', content: 'x', tags: [1] })).toMatch(
      /invalid args: tags/,
    );
    expect(await rpc('memory_search', { query: '' })).toMatch(/invalid args: query: /);
    expect(await rpc('memory_search', { query: 'x', limit: 101 })).toMatch(/invalid args: limit: /);
    expect(await rpc('memory_browse', { limit: 0 })).toMatch(/invalid args: limit: /);
    const declined = await call(client, 'memory_save', { title: 't', content: GH_TOKEN });
    expect(declined).toMatchObject({ kind: 'tool-error', text: expect.stringMatching(/declined/) });
    expect(JSON.stringify(declined)).not.toContain(GH_TOKEN);
    expect(await call(client, 'memory_get', { id: 'nope' })).toEqual({
      kind: 'tool-error',
      text: 'not found: nope',
      meta: undefined,
    });
    expect(await browseIds(client)).toEqual([]);
  }, 120_000);

  it('--team/--agent bind the session: reads are scoped, saves team-shared, args ignored', async () => {
    const { client: open } = await start();
    const g = await save(open, { title: 'g', content: 'zebra global' });
    const t1 = await save(open, { title: 't1', content: 'zebra team one', scopeTeamId: 't1' });
    const t1a1 = await save(open, {
      title: 'a1',
      content: 'zebra agent one private',
      scopeTeamId: 't1',
      scopeAgentId: 'a1',
    });
    const t1a2 = await save(open, {
      title: 'a2',
      content: 'zebra agent two private',
      scopeTeamId: 't1',
      scopeAgentId: 'a2',
    });
    const t2 = await save(open, { title: 't2', content: 'zebra team two', scopeTeamId: 't2' });
    const universe = [g, t1, t1a1, t1a2, t2];

    const { client: bound } = await start(['--team', 't1', '--agent', 'a1']);
    const expected = [g.id, t1.id, t1a1.id].sort();
    for (const spoof of [{}, { scopeTeamId: 't2', scopeAgentId: 'a2' }]) {
      for (const mode of ['fts', 'vector', 'hybrid']) {
        const found = await search(bound, { query: 'zebra', mode, limit: 100, ...spoof });
        expect(found.results.map((r) => r.id).sort(), mode).toEqual(expected);
      }
      expect(await browseIds(bound, spoof)).toEqual(expected);
      for (const item of universe) {
        const out = await call(bound, 'memory_get', { id: item.id, ...spoof });
        expect(out.kind, item.title).toBe(expected.includes(item.id) ? 'ok' : 'tool-error');
      }
    }

    const shared = await save(bound, {
      title: 'bound',
      content: 'zebra saved while bound',
      scopeTeamId: 't2',
      scopeAgentId: 'a2',
    });
    expect(shared).toMatchObject({ teamId: 't1', agentId: null, tenantId: null });
    expect(await browseIds(open, { scopeTeamId: 't1', scopeAgentId: 'a2' })).toEqual(
      [g.id, t1.id, t1a2.id, shared.id].sort(),
    );
    expect(await browseIds(open, { scopeTeamId: 't2' })).toEqual([g.id, t2.id].sort());

    const { client: tenant } = await start(['--tenant', 'acme', '--team', 't1']);
    const acme = await save(tenant, { title: 'acme', content: 'zebra tenant acme' });
    expect(acme).toMatchObject({ tenantId: 'acme', teamId: 't1', agentId: null });
    expect(await browseIds(tenant)).toEqual([g.id, t1.id, shared.id, acme.id].sort());
    expect(await browseIds(bound)).not.toContain(acme.id);
    expect(await browseIds(open, { scopeTeamId: 't1' })).not.toContain(acme.id);
  }, 120_000);

  it('with the default local model, stdout stays pure JSON-RPC while it loads', async () => {
    const raw = spawnRaw(db, { CAIRN_HOME: home, CAIRN_LOG_LEVEL: 'debug' });
    raws.push(raw);
    const init = await raw.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw-test', version: '0.0.0' },
    });
    expect(init.result).toMatchObject({ serverInfo: { name: 'cairn-memory' } });
    raw.notify('notifications/initialized');

    const callTool = (name: string, args: Record<string, unknown>) =>
      raw.request('tools/call', { name, arguments: args });
    const saved = toolJson<Saved>(
      await callTool('memory_save', {
        title: 'cat',
        content: 'The user has a cat named Miso who sleeps on the rug.',
      }),
    );
    await callTool('memory_save', {
      title: 'taxes',
      content: 'Quarterly tax filing is due in April.',
    });
    const id = saved.fact?.id;
    const hybrid = toolJson<Found>(
      await callTool('memory_search', { query: 'Miso', mode: 'hybrid' }),
    );
    expect(hybrid.degraded).toBeUndefined();
    expect(hybrid.results[0]).toMatchObject({ id, scoreBasis: 'rrf' });
    expect(hybrid.results[0]?.ranks.fts).toBe(1);

    // The background worker embeds the saves once the model is up; then vector search finds
    // the cat by meaning alone.
    const vector = await pollUntil('the cat to be embedded', 90_000, async () => {
      const found = toolJson<Found>(
        await callTool('memory_search', { query: 'feline companion', mode: 'vector' }),
      );
      return found.results.length === 2 ? found : undefined;
    });
    expect(vector.degraded).toBeUndefined();
    expect(vector.results[0]).toMatchObject({ id, scoreBasis: 'vector-cosine' });
    const bad = await callTool('memory_search', { query: '' });
    expect(bad.result).toMatchObject({
      isError: true,
      _meta: { denied: { reason: 'invalid_args' } },
    });

    expect(await raw.end(), raw.stderr()).toBe(0);
    const lines = raw.lines();
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) {
      let msg: unknown;
      expect(() => (msg = JSON.parse(line)), `non-JSON stdout line: ${line}`).not.toThrow();
      expect(msg).toMatchObject({ jsonrpc: '2.0' });
    }
  }, 150_000);
});
