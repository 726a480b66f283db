import { describe, expect, it } from 'vitest';

import { queryTerms } from '../../search/index.js';
import {
  classifyIntent,
  classifyRoute,
  createFeatureReranker,
  createPrfExpander,
  planClauses,
  type QueryChannels,
  QUERY_FUSION,
  type QueryExpander,
  type Reranker,
  runQuery,
  strongSignal,
} from './index.js';

describe('classification', () => {
  it('names the intent and the cue that decided it', () => {
    expect(classifyIntent('why did we drop redis')).toEqual({ value: 'WHY', cue: 'why' });
    expect(classifyIntent('when was the schema migrated').value).toBe('WHEN');
    expect(classifyIntent('who owns the billing service').value).toBe('ENTITY');
    expect(classifyIntent('how to rotate the api keys')).toEqual({ value: 'WHAT', cue: 'default' });
  });

  it('routes memory_retrieve queries', () => {
    expect(classifyRoute('what did we do in the last session').value).toBe('timeline');
    expect(classifyRoute('why did we choose sqlite over postgres').value).toBe('causal');
    expect(classifyRoute('notes similar to the auth handoff').value).toBe('discovery');
    expect(
      classifyRoute('how do we deploy the api; and what broke in the billing export').value,
    ).toBe('complex');
    expect(classifyRoute('token refresh flow')).toEqual({ value: 'hybrid', cue: 'default' });
  });
});

describe('query plans', () => {
  it('splits two asks and keeps one topic whole', () => {
    expect(
      planClauses('how do we deploy the api server and where are the backup scripts kept'),
    ).toEqual(['how do we deploy the api server', 'where are the backup scripts kept']);
    expect(planClauses('salt and pepper steak recipe')).toEqual(['salt and pepper steak recipe']);
    expect(planClauses('deploy the api server? deploy the api server')).toEqual([
      'deploy the api server? deploy the api server',
    ]);
  });
});

describe('strong-signal bypass', () => {
  it('fires on a decisive first hit only, and never with an intent', () => {
    expect(strongSignal([0.9, 0.7])).toBe(true);
    expect(strongSignal([0.9, 0.8])).toBe(false);
    expect(strongSignal([0.8, 0.1])).toBe(false);
    expect(strongSignal([0.9])).toBe(true);
    expect(strongSignal([0.9, 0.1], 'databases')).toBe(false);
  });
});

const DOCS = [
  {
    title: 'Queue handoff',
    text: 'The ingest queue retries with exponential backoff. Backoff caps at sixty seconds; retries go to the dead letter queue.',
  },
  {
    title: 'Dead letters',
    text: 'Messages that exhaust their retries land in the dead letter queue and page the on-call.',
  },
  {
    title: 'Backoff policy',
    text: 'Exponential backoff with jitter for every client; the cap is configurable.',
  },
  { title: 'Lunch', text: 'Tacos on friday near the office.' },
  { title: 'Paging', text: 'The on-call rotation and the paging policy for incidents.' },
];

/** Channels over DOCS with a crude term-overlap score, enough to drive the pipeline. */
function channels(): QueryChannels {
  const terms = DOCS.map((d) => new Set(queryTerms(`${d.title} ${d.text}`)));
  return {
    text: (query, limit) => {
      const q = queryTerms(query);
      const hits = terms
        .map((t, id) => {
          const n = q.filter((x) => t.has(x)).length;
          return { id, score: n / (1 + n) };
        })
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score || a.id - b.id);
      return Promise.resolve(hits.slice(0, limit));
    },
    vector: null,
    texts: (ids) =>
      Promise.resolve(new Map(ids.map((id) => [id, DOCS[id] ?? { title: '', text: '' }]))),
    termStats: (list) =>
      Promise.resolve({
        df: new Map(list.map((term) => [term, terms.filter((t) => t.has(term)).length])),
        fragments: DOCS.length,
      }),
  };
}

describe('the query pipeline', () => {
  it('expands by feedback, fuses and reranks, and reports every stage', async () => {
    const out = await runQuery(
      channels(),
      { expander: createPrfExpander(), reranker: createFeatureReranker() },
      { query: 'retries backoff' },
    );
    expect(out.bypassed).toBe(false);
    expect(out.expansion?.terms.length).toBeGreaterThan(0);
    expect(out.expansion?.terms).not.toContain('retri');
    expect(out.hits[0]?.id).toBe(0);
    expect(out.hits.map((h) => h.id)).not.toContain(3);
    expect(out.stages).toMatchObject({ vector: 'skipped: no embedder', rerank: 'features' });
    expect(out.stages.expansion).toMatch(/^prf: \d+ terms$/);
  });

  it('skips expansion on a strong signal and says so', async () => {
    const c = channels();
    const strong: QueryChannels = {
      ...c,
      text: async (q, l) => (q === 'tacos' ? [{ id: 3, score: 0.9 }] : c.text(q, l)),
    };
    const out = await runQuery(
      strong,
      { expander: createPrfExpander(), reranker: createFeatureReranker() },
      { query: 'tacos' },
    );
    expect(out.bypassed).toBe(true);
    expect(out.expansion).toBeNull();
    expect(out.stages.expansion).toMatch(/^skipped: strong signal/);
    const withIntent = await runQuery(
      strong,
      { expander: createPrfExpander(), reranker: createFeatureReranker() },
      { query: 'tacos', intent: 'food' },
    );
    expect(withIntent.bypassed).toBe(false);
  });

  it('says when the first pass found nothing', async () => {
    const out = await runQuery(
      channels(),
      { expander: createPrfExpander(), reranker: createFeatureReranker() },
      { query: 'kubernetes' },
    );
    expect(out.hits).toEqual([]);
    expect(out.stages.expansion).toBe('skipped: the first BM25 pass found nothing');
  });

  it('fuses with the fusion stage it is given (k and the vector weight)', async () => {
    const original: QueryExpander = {
      name: 'off',
      expand: (i) =>
        Promise.resolve({
          queries: [{ text: i.query, weight: 1, source: 'original' }],
          terms: [],
          stage: 'off',
        }),
    };
    const fusedOrder: Reranker = {
      name: 'fused',
      rerank: (i) =>
        Promise.resolve({
          results: i.candidates.map((c) => ({ id: c.id, score: -c.fusedRank, features: {} })),
          stage: 'fused',
        }),
    };
    const withVectors: QueryChannels = {
      ...channels(),
      vector: () =>
        Promise.resolve({
          hits: [
            { id: 4, cosine: 0.9 },
            { id: 0, cosine: 0.8 },
          ],
          degradedReason: null,
        }),
    };
    const run = (fusion: { k: number; vectorWeight: number }) =>
      runQuery(
        withVectors,
        { expander: original, reranker: fusedOrder, fusion },
        { query: 'retries backoff' },
      );
    const heard = await run({ k: 60, vectorWeight: 1 });
    expect(heard.hits.map((h) => h.id).slice(0, 2)).toEqual([0, 4]);
    const muted = await run({ k: 5, vectorWeight: 0 });
    expect(muted.hits.at(-1)?.id).toBe(4);
    expect(muted.stages.fusion).toBe('rrf k=5 over 2 lists');
    const shipped = await runQuery(
      withVectors,
      { expander: original, reranker: fusedOrder },
      { query: 'retries backoff' },
    );
    expect(shipped.stages.fusion).toBe(`rrf k=${QUERY_FUSION.k} over 2 lists`);
  });
});
