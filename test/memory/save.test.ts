// memory_save through a real SDK client (in-memory transport): facts need a title, procedures
// version by name, identical content in the same scope dedupes, and every refusal (invalid
// args, secret-only content) answers with the right error and writes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { MAX_CONTENT_BYTES } from '../../src/memory/index.js';
import { callErr, callInvalid, callOk, callRpcInvalid } from '../helpers.js';
import {
  browse,
  type Got,
  itemCount,
  MEMORY_TOOLS,
  type MemorySession,
  memorySession,
  save,
  type Saved,
  search,
} from './fixtures.js';

// Built at run time so no token-shaped literal is committed.
const GH_TOKEN = `ghp_${'a1B2c3D4e5F6g7H8i9J0'}${'k1L2m3N4o5P6q7R8'}`;

describe('memory tools', () => {
  let s: MemorySession;
  beforeEach(async () => {
    s = await memorySession();
  });
  afterEach(async () => s.close());

  it('initializes as cairn-memory and lists memory_save, memory_search, memory_browse, memory_get', async () => {
    expect(s.client.getServerVersion()?.name).toBe('cairn-memory');
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(MEMORY_TOOLS);
    const byName = new Map(tools.map((t) => [t.name, t]));
    const saveSchema = byName.get('memory_save')?.inputSchema;
    expect(saveSchema?.required).toEqual(['content']);
    expect(Object.keys(saveSchema?.properties ?? {}).sort()).toEqual(
      ['content', 'procedureName', 'scopeAgentId', 'scopeTeamId', 'tags', 'title'].sort(),
    );
    expect(byName.get('memory_search')?.inputSchema.required).toEqual(['query']);
    expect(Object.keys(byName.get('memory_search')?.inputSchema.properties ?? {}).sort()).toEqual(
      ['limit', 'mode', 'query', 'scopeAgentId', 'scopeTeamId'].sort(),
    );
    expect(Object.keys(byName.get('memory_browse')?.inputSchema.properties ?? {}).sort()).toEqual(
      ['limit', 'scopeAgentId', 'scopeTeamId'].sort(),
    );
    for (const tool of tools) expect(tool.description?.length ?? 0).toBeGreaterThan(20);
  });

  it('an unknown tool is -32602', async () => {
    expect(await callRpcInvalid(s.client, 'memory_delete', { id: 'x' })).toMatch(/unknown tool/);
  });
});

describe('memory_save: facts', () => {
  let s: MemorySession;
  beforeEach(async () => {
    s = await memorySession();
  });
  afterEach(async () => s.close());

  it('saves a fact and returns its full shape', async () => {
    const out = await callOk<Saved>(s.client, 'memory_save', {
      title: 'Editor preference',
      content: 'The user prefers tabs over spaces in Go files.',
      tags: ['prefs', 'go', 'prefs'],
    });
    expect(out.saved).toBe('fact');
    expect(out.deduplicated).toBeUndefined();
    expect(out.fact).toMatchObject({
      kind: 'fact',
      title: 'Editor preference',
      content: 'The user prefers tabs over spaces in Go files.',
      tags: ['prefs', 'go'],
      tenantId: null,
      teamId: null,
      agentId: null,
    });
    expect(out.fact?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.fact?.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Number.isNaN(Date.parse(out.fact?.createdAt ?? ''))).toBe(false);
    const got = await callOk<Got>(s.client, 'memory_get', { id: out.fact?.id });
    expect(got.item).toEqual(out.fact);
    expect(got.versions).toBeUndefined();
  });

  it('a fact requires a title: invalid args naming title, nothing written', async () => {
    for (const args of [
      { content: 'The build cache lives in /var/cache/ci.' },
      { content: 'The build cache lives in /var/cache/ci.', title: '' },
      { content: 'The build cache lives in /var/cache/ci.', title: '  \n\t' },
    ]) {
      expect(await callInvalid(s.client, 'memory_save', args), JSON.stringify(args)).toMatch(
        /invalid args: title: /,
      );
    }
    expect(await itemCount(s.core)).toBe(0);
  });

  it('dedupes identical content in the same scope, whitespace-normalised', async () => {
    const first = await save(s.client, {
      title: 'pets',
      content: 'The user has a cat named Miso.',
      scopeTeamId: 't1',
    });
    for (const content of [
      'The user has a cat named Miso.',
      '  The user  has a\tcat named\n\nMiso.  ',
    ]) {
      const again = await callOk<Saved>(s.client, 'memory_save', {
        title: 'a different title',
        content,
        scopeTeamId: 't1',
      });
      expect(again).toMatchObject({ saved: 'fact', deduplicated: true, fact: { id: first.id } });
    }
    expect(await itemCount(s.core)).toBe(1);
    // Case and punctuation are content, not whitespace.
    const other = await callOk<Saved>(s.client, 'memory_save', {
      title: 'pets',
      content: 'the user has a cat named Miso',
      scopeTeamId: 't1',
    });
    expect(other.deduplicated).toBeUndefined();
    expect(other.fact?.id).not.toBe(first.id);
  });

  it('dedupes only within one scope: the same content in another team or agent is a new fact', async () => {
    const content = 'Deploys freeze on the last Friday of each quarter.';
    const scopes = [
      {},
      { scopeTeamId: 't1' },
      { scopeTeamId: 't2' },
      { scopeTeamId: 't1', scopeAgentId: 'a1' },
      { scopeTeamId: 't1', scopeAgentId: 'a2' },
    ];
    const saved = [];
    for (const scope of scopes) {
      const out = await callOk<Saved>(s.client, 'memory_save', {
        title: 'freeze',
        content,
        ...scope,
      });
      expect(out.deduplicated, JSON.stringify(scope)).toBeUndefined();
      saved.push(out.fact?.id);
    }
    expect(new Set(saved).size).toBe(scopes.length);
    for (const [i, scope] of scopes.entries()) {
      const again = await callOk<Saved>(s.client, 'memory_save', {
        title: 'freeze',
        content,
        ...scope,
      });
      expect(again).toMatchObject({ deduplicated: true, fact: { id: saved[i] } });
    }
    expect(await itemCount(s.core)).toBe(scopes.length);
  });

  it('declines content that is nothing but secrets, as a tool-error, and writes nothing', async () => {
    for (const content of [GH_TOKEN, `  ${GH_TOKEN}\n`, `${GH_TOKEN} ; ${GH_TOKEN}`]) {
      const err = await callErr(s.client, 'memory_save', { title: 'token', content });
      expect(err.text).toMatch(/declined/);
      expect(err.text).not.toContain(GH_TOKEN);
    }
    const proc = await callErr(s.client, 'memory_save', {
      procedureName: 'release',
      content: GH_TOKEN,
    });
    expect(proc.text).toMatch(/declined/);
    expect(await itemCount(s.core)).toBe(0);
    // With real text around it, the secret is redacted and the fact is kept.
    const kept = await save(s.client, {
      title: 'release token',
      content: `Release with GH_TOKEN=${GH_TOKEN} from the vault.`,
    });
    expect(kept.content).not.toContain(GH_TOKEN);
    expect(kept.content).toContain('[REDACTED:');
  });

  it('caps content at 64 KiB of UTF-8: one byte over is invalid args naming content', async () => {
    expect(MAX_CONTENT_BYTES).toBe(64 * 1024);
    const filler = 'word '.repeat(13_000);
    const exact = filler + 'z'.repeat(MAX_CONTENT_BYTES - Buffer.byteLength(filler));
    expect(Buffer.byteLength(exact)).toBe(MAX_CONTENT_BYTES);
    const big = await save(s.client, { title: 'big', content: exact });
    expect(big.content).toBe(exact);

    const over = `${exact}x`;
    expect(await callInvalid(s.client, 'memory_save', { title: 'over', content: over })).toMatch(
      /invalid args: content: /,
    );
    // Bytes, not characters: 32 769 two-byte characters are 65 538 bytes.
    const wide = 'é'.repeat(MAX_CONTENT_BYTES / 2 + 1);
    expect(wide.length).toBeLessThan(MAX_CONTENT_BYTES);
    expect(await callInvalid(s.client, 'memory_save', { title: 'wide', content: wide })).toMatch(
      /invalid args: content: /,
    );
    expect(
      await callInvalid(s.client, 'memory_save', { procedureName: 'wide', content: wide }),
    ).toMatch(/invalid args: content: /);
    expect(await itemCount(s.core)).toBe(1);
  });

  it('rejects empty, blank, missing or non-string content with invalid args naming content', async () => {
    for (const content of ['', ' ', '\n\t  \n', undefined, 42, null, ['x']]) {
      expect(
        await callInvalid(s.client, 'memory_save', { title: 't', content }),
        JSON.stringify(content),
      ).toMatch(/invalid args: content: /);
    }
    expect(await itemCount(s.core)).toBe(0);
  });

  it('rejects non-string tags and bad scope ids with invalid args naming the field', async () => {
    const base = { title: 't', content: 'Tags must be strings.' };
    for (const tags of [[1], ['ok', 2], [null], 'prefs', [{}], [''], { a: 'b' }]) {
      expect(
        await callInvalid(s.client, 'memory_save', { ...base, tags }),
        JSON.stringify(tags),
      ).toMatch(/invalid args: tags/);
    }
    for (const field of ['scopeTeamId', 'scopeAgentId', 'procedureName']) {
      for (const value of ['', 7]) {
        expect(
          await callInvalid(s.client, 'memory_save', { ...base, [field]: value }),
          `${field}=${JSON.stringify(value)}`,
        ).toMatch(new RegExp(`invalid args: ${field}: `));
      }
    }
    expect(await callInvalid(s.client, 'memory_save', { ...base, title: 9 })).toMatch(
      /invalid args: title: /,
    );
    expect(await itemCount(s.core)).toBe(0);
  });

  it('nothing is visible anywhere after a run of refusals', async () => {
    await callInvalid(s.client, 'memory_save', { content: 'no title here' });
    await callInvalid(s.client, 'memory_save', { title: 't', content: '' });
    await callErr(s.client, 'memory_save', { title: 't', content: GH_TOKEN });
    await callInvalid(s.client, 'memory_save', { title: 't', content: 'x', tags: [1] });
    expect(await itemCount(s.core)).toBe(0);
    expect(await browse(s.client)).toEqual([]);
    expect((await search(s.client, { query: 'title here' })).results).toEqual([]);
  });
});

describe('memory_save: procedures', () => {
  let s: MemorySession;
  beforeEach(async () => {
    s = await memorySession();
  });
  afterEach(async () => s.close());

  it('versions a procedure 1, 2, 3; search and browse show only the latest; get shows all', async () => {
    const contents = [
      'Run make build, then copy artefacts to the bucket (alphastep).',
      'Run make build and make test, then upload artefacts (betastep).',
      'Run make release; it builds, tests and uploads artefacts (gammastep).',
    ];
    const saved = [];
    for (const content of contents) {
      const out = await callOk<Saved>(s.client, 'memory_save', {
        procedureName: 'release-artefacts',
        content,
        tags: ['ops'],
      });
      expect(out.saved).toBe('procedure');
      saved.push(out.procedure);
    }
    expect(saved.map((p) => p?.version)).toEqual([1, 2, 3]);
    expect(new Set(saved.map((p) => p?.id)).size).toBe(3);
    const latest = saved[2];
    expect(latest).toMatchObject({
      kind: 'procedure',
      procedureName: 'release-artefacts',
      title: 'release-artefacts',
      tags: ['ops'],
    });

    // Search by a word every version shares: only the latest is found.
    const found = await search(s.client, { query: 'artefacts' });
    expect(found.results.map((r) => r.id)).toEqual([latest?.id]);
    expect(found.results[0]).toMatchObject({
      kind: 'procedure',
      procedureName: 'release-artefacts',
      version: 3,
    });
    // Words only older versions had are not found at all.
    expect((await search(s.client, { query: 'alphastep' })).results).toEqual([]);
    expect((await search(s.client, { query: 'betastep' })).results).toEqual([]);
    expect((await search(s.client, { query: 'gammastep' })).results).toHaveLength(1);
    for (const mode of ['vector', 'hybrid']) {
      const degraded = await search(s.client, { query: 'artefacts', mode });
      expect(degraded.results.map((r) => r.id)).toEqual([latest?.id]);
    }

    const items = await browse(s.client);
    expect(items.map((i) => i.id)).toEqual([latest?.id]);

    for (const p of saved) {
      const got = await callOk<Got>(s.client, 'memory_get', { id: p?.id });
      expect(got.item.id).toBe(p?.id);
      expect(got.versions?.map((v) => v.version)).toEqual([3, 2, 1]);
      expect(got.versions?.map((v) => v.content)).toEqual([...contents].reverse());
    }
  });

  it('memory_get of an older procedure version says it is superseded and names the current one', async () => {
    const saved = [];
    for (const content of ['Deploy with make deploy (v1).', 'Deploy with make ship (v2).']) {
      saved.push(await save(s.client, { procedureName: 'deploy', content }));
    }
    const [v1, v2] = saved;
    const old = await s.client.callTool({ name: 'memory_get', arguments: { id: v1?.id } });
    expect(old.structuredContent).toMatchObject({
      item: { id: v1?.id, version: 1 },
      supersededBy: { id: v2?.id, version: 2 },
    });
    const texts = (old.content as Array<{ type: string; text: string }>).map((c) => c.text);
    expect(JSON.parse(texts[0] ?? '')).toMatchObject({ supersededBy: { id: v2?.id } });
    expect(texts[1]).toBe(
      `superseded: this is version 1 of procedure "deploy"; the current version is 2 (id ${v2?.id}). memory_get {"id":"${v2?.id}"} reads it.`,
    );
    const current = await s.client.callTool({ name: 'memory_get', arguments: { id: v2?.id } });
    expect(current.structuredContent).not.toHaveProperty('supersededBy');
    expect(current.content).toHaveLength(1);
  });

  it('the same content as the latest version is deduplicated; a title is kept', async () => {
    const v1 = await save(s.client, {
      procedureName: 'rotate-keys',
      title: 'How to rotate keys',
      content: 'Open the vault, rotate, redeploy.',
    });
    expect(v1.title).toBe('How to rotate keys');
    const dup = await callOk<Saved>(s.client, 'memory_save', {
      procedureName: 'rotate-keys',
      content: ' Open the vault,  rotate, redeploy. ',
    });
    expect(dup).toMatchObject({ deduplicated: true, procedure: { id: v1.id, version: 1 } });
    const v2 = await save(s.client, {
      procedureName: 'rotate-keys',
      content: 'Open the vault, rotate, redeploy, then notify the team.',
    });
    expect(v2.version).toBe(2);
    expect(await itemCount(s.core)).toBe(2);
  });

  it('procedures version per scope: the same name in another team starts at 1', async () => {
    const a = await save(s.client, {
      procedureName: 'oncall',
      content: 'Page the primary, then the secondary.',
      scopeTeamId: 't1',
    });
    const b = await save(s.client, {
      procedureName: 'oncall',
      content: 'Page the primary, then wait ten minutes.',
      scopeTeamId: 't1',
    });
    const c = await save(s.client, {
      procedureName: 'oncall',
      content: 'Post in the incident channel first.',
      scopeTeamId: 't2',
    });
    expect([a.version, b.version, c.version]).toEqual([1, 2, 1]);
    const got = await callOk<Got>(s.client, 'memory_get', { id: c.id, scopeTeamId: 't2' });
    expect(got.versions?.map((v) => v.id)).toEqual([c.id]);
    const t1 = await callOk<Got>(s.client, 'memory_get', { id: a.id, scopeTeamId: 't1' });
    expect(t1.versions?.map((v) => v.id)).toEqual([b.id, a.id]);
  });

  it('memory_get of an unknown id is the tool-error "not found: <id>"; a blank id is invalid args', async () => {
    const err = await callErr(s.client, 'memory_get', { id: 'no-such-item' });
    expect(err.text).toBe('not found: no-such-item');
    expect(await callInvalid(s.client, 'memory_get', { id: '' })).toMatch(/invalid args: id: /);
    expect(await callInvalid(s.client, 'memory_get', {})).toMatch(/invalid args: id: /);
  });
});
