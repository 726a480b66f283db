// memory_search and memory_browse through a real SDK client: result shapes and score bases for
// each mode, limits, query syntax that must never error, degraded answers without an
// embedder, and browse order. Vector and hybrid with an embedder are in search-vector.test.ts
// (the postgres test project runs this file; vectors are not ported there yet).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { callInvalid, fakeClock } from '../helpers.js';
import {
  browse,
  type Found,
  hashEmbedder,
  type Item,
  type MemorySession,
  memorySession,
  save,
  search,
} from './fixtures.js';

describe('memory_search: full text (no embedder)', () => {
  let s: MemorySession;
  beforeEach(async () => {
    s = await memorySession();
  });
  afterEach(async () => s.close());

  it('defaults to fts and cites id, title, a snippet with the match, score and ranks', async () => {
    const cat = await save(s.client, {
      title: 'pets',
      content: 'The user has a cat named Miso who sleeps on the rug by the radiator.',
      tags: ['home'],
    });
    await save(s.client, { title: 'tax', content: 'Quarterly tax filing is due in April.' });
    const found = await search(s.client, { query: 'Miso' });
    expect(found.mode).toBe('fts');
    expect(found.degraded).toBeUndefined();
    expect(found.results).toHaveLength(1);
    const hit = found.results[0];
    expect(hit).toMatchObject({
      id: cat.id,
      kind: 'fact',
      title: 'pets',
      scoreBasis: 'fts-bm25',
      ranks: { fts: 1, vector: null },
      tags: ['home'],
      teamId: null,
      agentId: null,
      createdAt: cat.createdAt,
    });
    expect(hit?.snippet).toMatch(/Miso/);
    expect(hit?.score).toBeGreaterThan(0);
    expect(Number.isFinite(hit?.score)).toBe(true);
  });

  it('ranks better matches first and numbers fts ranks 1..n', async () => {
    await save(s.client, { title: 'a', content: 'Kubernetes is mentioned once here.' });
    const best = await save(s.client, {
      title: 'kubernetes upgrade',
      content: 'Kubernetes upgrade notes: drain kubernetes nodes before the kubernetes upgrade.',
    });
    await save(s.client, { title: 'c', content: 'Nothing relevant in this one.' });
    const found = await search(s.client, { query: 'kubernetes upgrade' });
    expect(found.results[0]?.id).toBe(best.id);
    expect(found.results).toHaveLength(2);
    expect(found.results.map((r) => r.ranks.fts)).toEqual([1, 2]);
    const scores = found.results.map((r) => r.score);
    expect(scores[0]).toBeGreaterThanOrEqual(scores[1] ?? 0);
  });

  it('finds a word in a long fact and shows it in the snippet', async () => {
    const filler = 'The quarterly planning meeting covered many routine items. '.repeat(40);
    const long = await save(s.client, {
      title: 'planning',
      content: `${filler}Finally, the team agreed to adopt pnpm workspaces. ${filler}`,
    });
    const found = await search(s.client, { query: 'pnpm' });
    expect(found.results.map((r) => r.id)).toEqual([long.id]);
    expect(found.results[0]?.snippet).toMatch(/pnpm/);
    expect(found.results[0]?.snippet.length).toBeLessThan(long.content.length);
  });

  it('limit is 1..100 (default 10, also for null); 0, 101, 1.5, "5", -1 are invalid args naming limit', async () => {
    for (let i = 0; i < 12; i++) {
      await save(s.client, { title: `note ${i}`, content: `Shared keyword glacier, item ${i}.` });
    }
    expect((await search(s.client, { query: 'glacier' })).results).toHaveLength(10);
    expect((await search(s.client, { query: 'glacier', limit: 1 })).results).toHaveLength(1);
    expect((await search(s.client, { query: 'glacier', limit: 5 })).results).toHaveLength(5);
    expect((await search(s.client, { query: 'glacier', limit: 100 })).results).toHaveLength(12);
    expect((await search(s.client, { query: 'glacier', limit: null })).results).toHaveLength(10);
    for (const limit of [0, 101, 1.5, '5', -1]) {
      expect(
        await callInvalid(s.client, 'memory_search', { query: 'glacier', limit }),
        JSON.stringify(limit),
      ).toMatch(/invalid args: limit: /);
    }
  });

  it('empty, blank, missing or non-string queries and unknown modes are invalid args', async () => {
    for (const query of ['', '   ', '\n\t', undefined, 7, ['a']]) {
      expect(
        await callInvalid(s.client, 'memory_search', { query }),
        JSON.stringify(query),
      ).toMatch(/invalid args: query: /);
    }
    for (const mode of ['semantic', 'FTS', '', 1]) {
      expect(
        await callInvalid(s.client, 'memory_search', { query: 'x', mode }),
        JSON.stringify(mode),
      ).toMatch(/invalid args: mode: /);
    }
    for (const field of ['scopeTeamId', 'scopeAgentId']) {
      expect(await callInvalid(s.client, 'memory_search', { query: 'x', [field]: '' })).toMatch(
        new RegExp(`invalid args: ${field}: `),
      );
    }
  });

  it('FTS syntax characters never error and are searched as text', async () => {
    const ops = await save(s.client, {
      title: 'query operators',
      content:
        'Operators NEAR the parser: "quoted" phrases, prefix* stars, col:on colons, well-known dashes, (parens) and AND OR NOT words, caret^ too.',
    });
    const other = await save(s.client, {
      title: 'unrelated',
      content: 'Lunch is served at noon in the cafeteria.',
    });
    const queries = [
      '"',
      '""',
      '"quoted',
      'quoted"',
      '*',
      'prefix*',
      '*prefix',
      'NEAR',
      'NEAR(',
      'NEAR(a b, 2)',
      'parser NEAR/3 colons',
      '-',
      '-dashes',
      'well-known',
      ':',
      'col:on',
      'title:operators',
      'content:lunch',
      '(',
      ')',
      '((parens',
      'parens))',
      'AND',
      'OR',
      'NOT',
      'AND OR NOT',
      'NOT parser',
      'parser AND',
      '^',
      '^caret',
      'caret^',
      '{col1 col2}: x',
      "'; DROP TABLE memory_items; --",
      '\\ / ? % _ ~ ` @ # $ & + = < > | !',
      '💥 émoji ünïcode 漢字',
    ];
    for (const mode of ['fts', 'hybrid', 'vector']) {
      for (const query of queries) {
        const found = await search(s.client, { query, mode });
        expect(Array.isArray(found.results), `${mode} ${query}`).toBe(true);
      }
    }
    // Words next to syntax characters are still found as plain text.
    const expectOps = async (query: string): Promise<void> => {
      const found = await search(s.client, { query });
      expect(found.results[0]?.id, query).toBe(ops.id);
      expect(
        found.results.map((r) => r.id),
        query,
      ).not.toContain(other.id);
    };
    for (const query of [
      'NEAR(',
      '"quoted',
      'prefix*',
      'col:on',
      '((parens',
      '-dashes',
      'caret^',
      'AND OR NOT',
      'title:operators',
      'well-known',
    ]) {
      await expectOps(query);
    }
    // `content:lunch` is the word "content" and the word "lunch", not a column filter.
    const lunch = await search(s.client, { query: 'content:lunch' });
    expect(lunch.results.map((r) => r.id)).toContain(other.id);
    // Pure punctuation has no words: no results, no error.
    expect((await search(s.client, { query: '"*^()-:' })).results).toEqual([]);
  });

  it('vector and hybrid without an embedder answer from full text with degraded: true', async () => {
    const fact = await save(s.client, { title: 'stack', content: 'We deploy with Terraform.' });
    for (const mode of ['vector', 'hybrid']) {
      const found = await search(s.client, { query: 'terraform', mode });
      expect(found.degraded, mode).toBe(true);
      expect(found.degradedReason, mode).toMatch(/\S/);
      expect(found.results.map((r) => r.id)).toEqual([fact.id]);
      expect(found.results[0]?.scoreBasis).toBe('fts-bm25');
      expect(found.results[0]?.ranks).toEqual({ fts: 1, vector: null });
    }
    const fts = await search(s.client, { query: 'terraform', mode: 'fts' });
    expect(fts.degraded).toBeUndefined();
    expect(fts.degradedReason).toBeUndefined();
  });
});

describe('memory_browse', () => {
  let s: MemorySession;
  beforeEach(async () => {
    const clock = fakeClock();
    s = await memorySession({
      clock: () => {
        clock.advance(1000);
        return clock.now();
      },
    });
  });
  afterEach(async () => s.close());

  it('lists newest first with full items; limit 1..200 (default 20, also for null)', async () => {
    const saved: Item[] = [];
    for (let i = 0; i < 25; i++) {
      saved.push(await save(s.client, { title: `t${i}`, content: `Browse item number ${i}.` }));
    }
    const newestFirst = [...saved].reverse();
    const items = await browse(s.client);
    expect(items.map((i) => i.id)).toEqual(newestFirst.slice(0, 20).map((i) => i.id));
    expect(items[0]).toEqual(saved[24]);
    expect((await browse(s.client, { limit: 1 })).map((i) => i.id)).toEqual([saved[24]?.id]);
    expect((await browse(s.client, { limit: 200 })).map((i) => i.id)).toEqual(
      newestFirst.map((i) => i.id),
    );
    expect(await browse(s.client, { limit: null })).toHaveLength(20);
    for (const limit of [0, 201, 1.5, '5', -3]) {
      expect(
        await callInvalid(s.client, 'memory_browse', { limit }),
        JSON.stringify(limit),
      ).toMatch(/invalid args: limit: /);
    }
  });

  it('same-millisecond saves still list newest first', async () => {
    const t = await memorySession({ clock: () => Date.UTC(2031, 0, 1) });
    try {
      const saved: Item[] = [];
      for (let i = 0; i < 5; i++) {
        saved.push(await save(t.client, { title: `s${i}`, content: `Same tick ${i}.` }));
      }
      expect((await browse(t.client)).map((i) => i.id)).toEqual(
        [...saved].reverse().map((i) => i.id),
      );
    } finally {
      await t.close();
    }
  });

  it('an empty memory browses to [] and searches to []', async () => {
    expect(await browse(s.client)).toEqual([]);
    const found: Found = await search(s.client, { query: 'anything' });
    expect(found.results).toEqual([]);
  });
});

describe('memory_search: a failing embedder', () => {
  let s: MemorySession;
  beforeEach(async () => {
    const broken = hashEmbedder('test:broken');
    broken.embed = () => Promise.reject(new Error('model failed to load'));
    s = await memorySession({ embedder: broken });
  });
  afterEach(async () => s.close());

  it('vector and hybrid degrade to full text with a reason, instead of failing', async () => {
    const fact = await save(s.client, { title: 'queue', content: 'Jobs go through RabbitMQ.' });
    for (const mode of ['vector', 'hybrid']) {
      const found = await search(s.client, { query: 'rabbitmq', mode });
      expect(found.degraded, mode).toBe(true);
      expect(found.degradedReason, mode).toMatch(/\S/);
      expect(found.results.map((r) => r.id)).toEqual([fact.id]);
      expect(found.results[0]?.scoreBasis).toBe('fts-bm25');
    }
  });
});
