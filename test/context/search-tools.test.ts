// search_code of cairn-context through a real SDK client, over a project indexed with
// index_repo: the hit fields, each status (empty index, no match, all below min_score,
// filtered out, still building), freshness, collection/extensions/filters/limit, the byte
// budget with its hint, `resource` and `token`, provenance (recorded, -32602 fast-fail, the
// `_meta` override) and refusals naming the field.
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { MODEL_ID_HINT } from '../../src/activity/index.js';
import { type CodeSearchResult, RESOURCE_ONLY_CODE } from '../../src/code/index.js';
import type { Core } from '../../src/core/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { callInvalid, callRpcInvalid, linkedClient } from '../helpers.js';
import { callContext, contextCore, makeProject, type Project } from './fixtures.js';

/** structuredContent of search_code: the domain's answer (times as ISO 8601) and `resource`. */
type Answer = Omit<CodeSearchResult, 'index'> & {
  resource: string;
  index: (Omit<CodeSearchResult['index'][number], 'indexedAt'> & { indexedAt: string | null })[];
};

describe('cairn-context: search_code', () => {
  let project: Project;
  let core: Core;
  let client: Client;
  let close: () => Promise<void>;

  beforeEach(async () => {
    project = makeProject();
    const t = await contextCore(project);
    core = t.core;
    client = await linkedClient(createContextServer(core));
    close = async () => {
      await client.close();
      await t.close();
      project.dir.cleanup();
    };
  });
  afterEach(() => close());

  const index = (args: Record<string, unknown> = {}) =>
    callContext(client, 'index_repo', { path: project.root, collection: 'demo', ...args });
  const search = (args: Record<string, unknown>) =>
    callContext<Answer>(client, 'search_code', args);

  it('finds an indexed function: path, lines, symbol, language, snippet, score and basis', async () => {
    await index();
    const r = await search({ query: 'load path' });
    expect(r.data).toMatchObject({
      resource: 'code',
      status: 'ok',
      mode: 'fts',
      query: 'load path',
    });
    const hit = r.data.results[0];
    expect(hit).toMatchObject({
      collection: 'demo',
      path: 'src/load.ts',
      branch: '',
      start_line: 1,
      end_line: 5,
      symbol: 'load',
      language: 'typescript',
      kind: 'function',
      scoreBasis: 'fts-bm25',
    });
    expect(hit?.snippet).toContain('export function load(path: string) {');
    expect(hit?.score).toBeGreaterThan(0);
    expect(hit?.score).toBeLessThan(1);
    // Without an embedder the answer says vectors did not take part.
    expect(r.data.degraded).toBe(true);
    expect(r.data.degradedReason).toContain('CAIRN_EMBEDDINGS=none');
    expect(r.data.index).toHaveLength(1);
    expect(r.data.index[0]).toMatchObject({ collection: 'demo', state: 'ready', building: false });
    expect(r.data.index[0]?.indexedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(r.data.index[0]?.freshness).toMatchObject({ changed: 0, missing: 0, checked: 4 });
    expect(r.data.searchId).toBeTypeOf('number');
    expect(r.text).toMatch(/^Found: 1 result from the one indexed collection, scored fts-bm25\./);
    expect(r.text).toContain('\n1. src/load.ts:1-5 load (typescript function) score ');
    expect(r.text).toMatch(/\n {4}1> export function load\(path: string\) \{/);
    expect(r.text).toContain('\n- demo [ready]: ');
    expect(r.text).toContain('since: 0 changed, 0 gone of 4 checked');

    const provenance = r.meta?.['cairn/provenance'] as { model_id?: string } | undefined;
    expect(provenance?.model_id).toBe('test-model');
    const row = await core.store.get<{ query: string; results: number; model_id: string }>(
      `SELECT s.query, s.results, p.model_id FROM code_searches s
       JOIN code_provenance p ON p.id = s.provenance_id WHERE s.id = ?`,
      [r.data.searchId],
    );
    expect(row).toEqual({ query: 'load path', results: 1, model_id: 'test-model' });
    // resource "code" given explicitly is the same search.
    const same = await search({ query: 'load path', resource: 'code' });
    expect(same.data.results.map((h) => h.path)).toEqual(['src/load.ts']);
  });

  it('says the index is empty, then that nothing matched, in its first words', async () => {
    const empty = await search({ query: 'load' });
    expect(empty.data).toMatchObject({ status: 'empty_index', results: [], index: [] });
    expect(empty.text).toBe(
      'EMPTY INDEX: No code is indexed yet: index a repository with index_repo first.',
    );
    await index();
    const none = await search({ query: 'zebra' });
    expect(none.data).toMatchObject({ status: 'no_match', results: [], candidates: 0 });
    expect(none.text).toMatch(
      /^NO MATCH: Nothing in the one indexed collection matches the query\./,
    );
  });

  it('says when min_score left out every candidate, or some of them', async () => {
    await index();
    const all = await search({ query: 'load', min_score: 1 });
    expect(all.data).toMatchObject({ status: 'below_min_score', results: [], minScore: 1 });
    expect(all.data.droppedBelowMinScore).toBe(all.data.candidates);
    expect(all.data.bestScore).toBeGreaterThan(0);
    expect(all.text).toMatch(
      /^ALL BELOW min_score: All 1 candidate scored below min_score 1 \(best /,
    );
    const best = all.data.bestScore ?? 0;
    const kept = await search({ query: 'load', min_score: best });
    expect(kept.data.status).toBe('ok');
    expect(kept.data.results).toHaveLength(1);
  });

  it('says when extensions or filters removed everything the query matched', async () => {
    await index();
    for (const narrowing of [{ extensions: ['py'] }, { filters: ['lang:python'] }]) {
      const r = await search({ query: 'load', ...narrowing });
      expect(r.data).toMatchObject({ status: 'filtered_out', results: [] });
      expect(r.text).toMatch(
        /^FILTERED OUT: The query matches chunks in the one indexed collection, but none passes/,
      );
    }
  });

  it('answers with what is searchable while a job still runs, and says so', async () => {
    await index();
    const now = Date.now();
    await core.store.write((tx) =>
      tx.run(
        `INSERT INTO code_jobs(id, collection_id, action, state, phase, files_seen, files_total,
           created_at, started_at, heartbeat_at)
         SELECT 'job-test', id, 'start', 'running', 'chunking', 2, 9, ?, ?, ? FROM code_collections
         WHERE name = 'demo'`,
        [now, now, now],
      ),
    );
    const r = await search({ query: 'load' });
    expect(r.data).toMatchObject({ status: 'ok', building: true });
    expect(r.data.index[0]).toMatchObject({
      building: true,
      job: { id: 'job-test', phase: 'chunking' },
    });
    expect(r.text).toMatch(/^Found \(index still building\): 1 result/);
    expect(r.text).toContain(
      'is still being built: these results cover only what is searchable so far',
    );
    expect(r.text).toContain('; job job-test chunking');
  });

  it('carries the index age and the files changed since it was built', async () => {
    await index();
    const file = join(project.root, 'src/pick.ts');
    writeFileSync(file, 'export const changed = 1;\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const r = await search({ query: 'load' });
    expect(r.data.index[0]?.freshness).toMatchObject({ changed: 1, missing: 0, checked: 4 });
    expect(r.data.message).toContain('Since indexing, 1 file changed in "demo"');
    expect(r.text).toContain('re-run index_repo to refresh');
    expect(r.text).toContain('since: 1 changed, 0 gone of 4 checked');
  });

  it('narrows by collection, extensions, filters and limit', async () => {
    await index();
    await index({ path: join(project.root, 'tools'), collection: 'py' });
    const both = await search({ query: 'x' });
    expect(new Set(both.data.results.map((h) => h.collection))).toEqual(new Set(['demo', 'py']));
    expect(both.text).toMatch(/ \[(demo|py)\]\n/);
    const py = await search({ query: 'x', collection: 'py' });
    expect(py.data.results.map((h) => [h.collection, h.path])).toEqual([['py', 'f.py']]);
    expect(py.data.index.map((s) => s.collection)).toEqual(['py']);

    const byExt = await search({ query: 'x', collection: 'demo', extensions: ['.py'] });
    expect(byExt.data.results.map((h) => h.path)).toEqual(['tools/f.py']);
    const byPath = await search({ query: 'x', collection: 'demo', filters: ['path:src/'] });
    expect(byPath.data.results.length).toBeGreaterThan(0);
    expect(byPath.data.results.every((h) => h.path.startsWith('src/'))).toBe(true);
    const bySymbol = await search({ query: 'x', filters: ['symbol:id', 'kind:function'] });
    expect(bySymbol.data.results.map((h) => h.symbol)).toEqual(['id']);
    // A one-line chunk is `path:line`; its score, however small, is never shown as 0.
    expect(bySymbol.text).toMatch(
      /\n1\. src\/pick\.ts:6 id \(typescript function\) score (<0\.001|0\.\d*[1-9])/,
    );

    const wide = await search({ query: 'export function', collection: 'demo' });
    expect(wide.data.results.length).toBeGreaterThan(1);
    const one = await search({ query: 'export function', collection: 'demo', limit: 1 });
    expect(one.data.results).toEqual([wide.data.results[0]]);

    expect(await callInvalid(client, 'search_code', { query: 'x', collection: 'nope' })).toMatch(
      /^invalid args: collection: unknown collection "nope" \(known: demo, py\)/,
    );
    expect(
      await callInvalid(client, 'search_code', { query: 'x', filters: ['colour:red'] }),
    ).toMatch(/^invalid args: filters: /);
  });

  it('stays within the byte budget and says how to narrow', async () => {
    const line = `  const needle = "${'n'.repeat(150)}";`;
    for (let i = 0; i < 40; i++) {
      const body = Array.from({ length: 10 }, () => line).join('\n');
      project.write(`big/f${i}.ts`, `export function needle${i}() {\n${body}\n}\n`);
    }
    await index({ path: join(project.root, 'big'), collection: 'big' });
    const r = await search({ query: 'needle', limit: 100 });
    expect(r.data.status).toBe('ok');
    expect(r.data.truncated).toBe(true);
    expect(r.data.omitted).toBe(40 - r.data.results.length);
    expect(r.data.results.length).toBeGreaterThan(0);
    expect(r.data.hint).toBe(
      `Showing ${r.data.results.length} of 40 results to stay within 48 KiB: narrow with collection, extensions, filters (path:, lang:, kind:, symbol:, branch:) or a lower limit.`,
    );
    expect(Buffer.byteLength(JSON.stringify(r.data))).toBeLessThanOrEqual(48 * 1024 + 64);
    expect(r.text).toContain(r.data.hint ?? 'a hint');
    expect(r.text).toContain(`(${r.data.omitted} more left out: see the hint above)`);
    const small = await search({ query: 'needle', limit: 5 });
    expect(small.data).toMatchObject({ truncated: false, omitted: 0, hint: null });
  });

  it('accepts token and drops it: never echoed, never stored', async () => {
    await index();
    const secret = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2VjcmV0LXNpZ25hdHVyZQ';
    const r = await search({ query: 'load', token: secret });
    expect(r.data.status).toBe('ok');
    expect(JSON.stringify(r.data) + r.text + JSON.stringify(r.meta)).not.toContain(secret);
    const rows = await core.store.all('SELECT * FROM code_searches');
    const provenance = await core.store.all('SELECT * FROM code_provenance');
    expect(JSON.stringify([rows, provenance])).not.toContain(secret);
  });

  it('refuses bad arguments as tool errors naming the field', async () => {
    const invalid = (args: Record<string, unknown>) => callInvalid(client, 'search_code', args);
    expect(await invalid({})).toBe('invalid args: query: query is required');
    expect(await invalid({ query: 42 })).toBe('invalid args: query: query must be a string');
    expect(await invalid({ query: '' })).toBe('invalid args: query: query must not be empty');
    expect(await invalid({ query: ' \u200b\u0007 ' })).toBe(
      'invalid args: query: must not be blank',
    );
    expect(await invalid({ query: 'x'.repeat(4097) })).toBe(
      'invalid args: query: query is longer than 4096 characters',
    );
    for (const resource of ['memory', 'context', 42]) {
      expect(await invalid({ query: 'x', resource })).toBe(
        `invalid args: resource: ${RESOURCE_ONLY_CODE}`,
      );
    }
    expect(await invalid({ query: 'x', limit: 0 })).toMatch(/^invalid args: limit: /);
    expect(await invalid({ query: 'x', limit: 101 })).toMatch(/^invalid args: limit: /);
    expect(await invalid({ query: 'x', limit: 1.5 })).toMatch(/^invalid args: limit: /);
    expect(await invalid({ query: 'x', min_score: 2 })).toMatch(/^invalid args: min_score: /);
    expect(await invalid({ query: 'x', extensions: 'ts' })).toMatch(/^invalid args: extensions/);
    expect(await invalid({ query: 'x', filters: ['path'] })).toMatch(/^invalid args: filters: /);
    expect(await invalid({ query: 'x', token: 42 })).toBe(
      'invalid args: token: token must be a string',
    );
    // Nothing refused was recorded as a search.
    const n = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM code_searches');
    expect(n?.n).toBe(0);
  });
});

describe('cairn-context: search_code provenance', () => {
  it('fails fast with -32602 and the spec message when model_id cannot be found', async () => {
    const project = makeProject();
    const t = await contextCore(project, { USER: 'ann' });
    const client = await linkedClient(createContextServer(t.core));
    try {
      // The SDK client prefixes the JSON-RPC message with `MCP error <code>: `.
      expect(await callRpcInvalid(client, 'search_code', { query: 'load' })).toBe(
        `MCP error -32602: Missing execution provenance for 'search': model_id. ${MODEL_ID_HINT}`,
      );
      const n = await t.core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM code_searches');
      expect(n?.n).toBe(0);

      // The request _meta supplies the missing field and overrides discovered ones.
      const r = await client.callTool({
        name: 'search_code',
        arguments: { query: 'load' },
        _meta: { model_id: 'meta-model', operator_id: 'bob' },
      });
      expect(r.isError).toBeUndefined();
      expect(r._meta?.['cairn/provenance']).toMatchObject({
        model_id: 'meta-model',
        operator_id: 'bob',
        agent_program: 'cairn-test',
      });
      const row = await t.core.store.get<{ model_id: string; operator_id: string }>(
        `SELECT p.model_id, p.operator_id FROM code_searches s
         JOIN code_provenance p ON p.id = s.provenance_id`,
      );
      expect(row).toEqual({ model_id: 'meta-model', operator_id: 'bob' });

      let message = '';
      try {
        await client.callTool({
          name: 'search_code',
          arguments: { query: 'load' },
          _meta: { model_id: 'm', session_id: 5 },
        });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toContain('Invalid execution provenance: _meta.session_id must be a string');
    } finally {
      await client.close();
      await t.close();
      project.dir.cleanup();
    }
  });
});
