// Code search through a real store: hits carry file, lines, symbol, kind, language, branch,
// snippet, score and basis; every filter narrows; unknown collections and filters are refused
// by field; each search is recorded with its provenance.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  openFixture,
  PROVENANCE,
  seedCorpus,
  type Fixture,
} from '../../../test/code/search-fixtures.js';
import { InvalidInputError } from '../../shared/index.js';
import { createCodeSearch } from './code-search.js';
import type { CodeSearchInput, CodeSearchResult } from './types.js';

let fx: Fixture;
beforeEach(async () => {
  fx = await openFixture();
});
afterEach(async () => {
  await fx.close();
});

const search = (input: CodeSearchInput): Promise<CodeSearchResult> =>
  createCodeSearch(fx.store, { embedder: null }).search(input, PROVENANCE);

const symbols = (r: CodeSearchResult): (string | null)[] => r.results.map((h) => h.symbol);

/** The InvalidInputError `run` throws (fails the test when it does not throw one). */
async function refusal(run: () => Promise<unknown>): Promise<InvalidInputError> {
  const err = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidInputError);
  return err as InvalidInputError;
}

describe('createCodeSearch', () => {
  it('finds a method by name, with its file, lines, snippet, score and basis', async () => {
    await seedCorpus(fx);
    const r = await search({ query: 'evict', collection: 'app', filters: ['branch:@'] });
    expect(r.status).toBe('ok');
    expect(r.mode).toBe('fts');
    expect(r.degraded).toBe(true);
    expect(r.degradedReason).toContain('CAIRN_EMBEDDINGS=none');
    const [top] = r.results;
    expect(top).toMatchObject({
      collection: 'app',
      path: 'src/cache/lru.ts',
      branch: '',
      language: 'typescript',
      kind: 'method',
      symbol: 'LruCache.evict',
      signature: 'evict(): void',
      startLine: 11,
      endLine: 15,
      scoreBasis: 'fts-bm25',
      ranks: { fts: 1, vector: null },
    });
    expect(top?.score).toBeGreaterThan(0);
    expect(top?.score).toBeLessThan(1);
    expect(top?.snippet).toContain('evict(): void {');
    // The chunk starts at its doc comment (line 11); the name is on line 12.
    expect(top?.snippetLines).toEqual({ start: 11, end: 15, matches: [12] });
    // A class outline's lines are not the file's: no snippet line numbers.
    const cls = r.results.find((h) => h.kind === 'class');
    expect(cls?.snippetLines).toBeNull();
    expect(r.message).toMatch(/results? from collection "app", scored fts-bm25/);
  });

  it('searches every collection when none is named, and only the named one otherwise', async () => {
    await seedCorpus(fx);
    const all = await search({ query: 'ParseConfig load' });
    expect(new Set(all.results.map((h) => h.collection))).toEqual(new Set(['app', 'other']));
    expect(all.message).toContain('all 2 indexed collections');
    const other = await search({ query: 'ParseConfig load', collection: 'other' });
    expect(other.results.map((h) => h.collection)).toEqual(['other']);
  });

  it('narrows by each filter and by extensions', async () => {
    await seedCorpus(fx);
    const q = 'cache get key user server request';
    const by = async (filters: string[], extensions?: string[]) =>
      (await search({ query: q, collection: 'app', filters, extensions, limit: 50 })).results;
    expect((await by(['path:src/http/'])).map((h) => h.path)).toEqual(
      expect.arrayContaining(['src/http/server.ts']),
    );
    expect((await by(['path:src/http/'])).every((h) => h.path.startsWith('src/http/'))).toBe(true);
    expect(new Set((await by(['path:lib/', 'path:./docs/'])).map((h) => h.path))).toEqual(
      new Set(['docs/cache.md', 'lib/users.py']),
    );
    expect((await by(['lang:py'])).every((h) => h.language === 'python')).toBe(true);
    expect((await by(['language:text'])).map((h) => h.path)).toEqual(['docs/cache.md']);
    expect((await by(['branch:main'])).map((h) => [h.branch, h.symbol])).toEqual([
      ['main', 'LruCache.get'],
    ]);
    expect((await by(['branch:@'])).every((h) => h.branch === '')).toBe(true);
    expect((await by(['kind:class'])).map((h) => h.symbol)).toEqual(['LruCache']);
    expect((await by(['symbol:LruCache'])).length).toBe(4);
    expect((await by(['symbol:get', 'branch:@'])).map((h) => h.symbol)).toEqual(['LruCache.get']);
    expect((await by(['ext:md'])).map((h) => h.path)).toEqual(['docs/cache.md']);
    expect((await by([], ['*.py'])).map((h) => h.path)).toEqual(['lib/users.py', 'lib/users.py']);
    expect((await by(['kind:window', 'lang:python'])).length).toBe(0);
  });

  it('refuses an unknown collection, naming the field and the collections there are', async () => {
    await seedCorpus(fx);
    const err = await refusal(() => search({ query: 'x', collection: 'nope' }));
    expect(err.field).toBe('collection');
    expect(err.message).toContain('known: app, other');
  });

  it('refuses malformed filters and extensions, naming the field', async () => {
    await seedCorpus(fx);
    for (const filters of [
      ['owner:me'],
      ['lang:cobol'],
      ['kind:lambda'],
      ['-path:src/'],
      ['just words'],
      ['path:'],
      ['path:src/\u0000'],
      Array.from({ length: 10_000 }, (_, i) => `path:p${i}/`),
      ['x'.repeat(600)],
    ]) {
      const err = await refusal(() => search({ query: 'cache', filters }));
      expect(err.field, JSON.stringify(filters).slice(0, 40)).toBe('filters');
    }
    for (const extensions of [['ts; DROP TABLE'], ['']]) {
      expect((await refusal(() => search({ query: 'cache', extensions }))).field).toBe(
        'extensions',
      );
    }
  });

  it('records every search with who asked, one provenance row per distinct record', async () => {
    const ids = await seedCorpus(fx);
    const a = await search({ query: 'evict', collection: 'app' });
    const b = await search({ query: 'nothing-matches-this', limit: 3 });
    const rows = await fx.store.all<{
      id: number;
      collection_id: number | null;
      query: string;
      results: number;
      provenance_id: number;
    }>('SELECT id, collection_id, query, results, provenance_id FROM code_searches ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual([a.searchId, b.searchId]);
    expect(rows[0]).toMatchObject({ collection_id: ids.app, query: 'evict' });
    expect(rows[0]?.results).toBe(a.results.length);
    expect(rows[1]).toMatchObject({ collection_id: null, results: 0 });
    expect(rows[0]?.provenance_id).toBe(rows[1]?.provenance_id);
    const prov = await fx.store.get<{ session_id: string; json: string }>(
      'SELECT session_id, json FROM code_provenance WHERE id = ?',
      [rows[0]?.provenance_id ?? 0],
    );
    expect(prov?.session_id).toBe('test-session-1');
    expect(JSON.parse(prov?.json ?? '{}')).toEqual(PROVENANCE);
  });

  it('never crashes on hostile input', async () => {
    await seedCorpus(fx);
    expect((await refusal(() => search({ query: 'q'.repeat(5000) }))).field).toBe('query');
    expect((await refusal(() => search({ query: ' \u0000\u200b ' }))).field).toBe('query');
    expect((await refusal(() => search({ query: 'x', limit: 0 }))).field).toBe('limit');
    expect((await refusal(() => search({ query: 'x', limit: 1.5 }))).field).toBe('limit');
    expect((await refusal(() => search({ query: 'x', limit: 1000 }))).field).toBe('limit');
    expect((await refusal(() => search({ query: 'x', minScore: Number.NaN }))).field).toBe(
      'min_score',
    );
    expect((await refusal(() => search({ query: 'x', minScore: 2 }))).field).toBe('min_score');
    const junk = Array.from({ length: 4096 }, (_, i) => String.fromCharCode(i % 0x3000)).join('');
    expect((await search({ query: junk })).status).toBeTypeOf('string');
    const controls = await search({ query: 'evict\u0000\u0007\u001b[31m\u2028cache' });
    expect(controls.results.length).toBeGreaterThan(0);
    expect([...controls.query].some((ch) => ch.charCodeAt(0) < 0x20)).toBe(false);
    const quoted = await search({ query: `"') OR 1=1; --`, filters: ["path:'; DROP TABLE x; --"] });
    expect(['no_match', 'filtered_out']).toContain(quoted.status);
    expect((await search({ query: '!!! ??? ...' })).status).toBe('no_match');
    expect(await fx.store.get('SELECT COUNT(*) AS n FROM code_chunks')).toEqual({ n: 10 });
  });

  it('orders by score and lists symbols best first', async () => {
    await seedCorpus(fx);
    const r = await search({ query: 'load user profile', collection: 'app' });
    expect(symbols(r)[0]).toBe('load_user_profile');
    const scores = r.results.map((h) => h.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
  });
});
