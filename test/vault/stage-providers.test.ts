// The query pipeline's model-stage providers against a loopback server speaking each endpoint's
// shape (OpenAI chat completions, Ollama /api/chat, a Jina/Cohere-style /rerank): success,
// malformed answers, HTTP errors and timeouts, each through the real pipeline over a real
// store, with the fallback said in `stages`; and the configuration's validation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  createChatExpander,
  createFeatureReranker,
  createPrfExpander,
  createProviderReranker,
  queryVault,
  type QueryStages,
  type RemoteStage,
} from '../../src/vault/index.js';
import { createNoExpander } from '../../src/vault/query/index.js';
import { type Answer, loopback, type Loopback, ollamaChat, openAiChat } from './loopback.js';
import { type VaultFixture, vaultFixture } from './store-fixture.js';

let f: VaultFixture;
let server: Loopback | undefined;
let answer: (path: string, body: Record<string, unknown>) => Answer;
beforeEach(async () => {
  f = await vaultFixture();
  await f.add({
    path: 'h.md',
    title: 'Queue handoff',
    text: 'The ingest queue retries with exponential backoff.',
  });
  await f.add({
    path: 'j.md',
    title: 'Jitter research',
    text: 'Jitter spreads load so clients do not stampede after an outage.',
  });
  await f.add({
    path: 'd.md',
    title: 'Dead letters',
    text: 'Messages that exhaust their retries land in the dead letter queue.',
  });
  await f.add({ path: 'l.md', title: 'Lunch', text: 'Tacos on friday near the office.' });
  answer = () => ({ status: 404 });
  server = await loopback((s) => answer(s.path, s.body));
});
afterEach(async () => {
  await server?.close();
  await f.close();
});

const remote = (over: Partial<RemoteStage> = {}): RemoteStage => ({
  kind: 'openai',
  url: `${server?.url ?? ''}/v1`,
  model: 'm',
  timeoutMs: 2000,
  ...over,
});

/** query over the fixture without vectors (so only BM25 legs, and thus expansion, find text). */
const run = (stages: QueryStages, query = 'queue retries') =>
  queryVault(
    { ...f.deps, embedder: null },
    {
      query,
      limit: 10,
      compact: false,
      intent: 'reliability',
      candidateLimit: 30,
      filter: f.filter(),
      profile: 'query',
    },
    stages,
  );
const paths = (r: Awaited<ReturnType<typeof run>>) => r.results.map((h) => h.path);
const features = createFeatureReranker();

describe('expansion providers', () => {
  it('openai: the phrasings and keywords become weighted queries that find what the original cannot', async () => {
    answer = (path) =>
      path === '/v1/chat/completions'
        ? openAiChat(
            'Sure:\n```json\n{"queries": ["jitter to avoid a stampede", "queue retries"], "keywords": ["outage", 7]}\n```',
          )
        : { status: 404 };
    const plain = await run({ expander: createNoExpander(), reranker: features });
    expect(paths(plain)).not.toContain('j.md');
    const r = await run({
      expander: createChatExpander(remote({ apiKey: 'sk-test' })),
      reranker: features,
    });
    // The phrasing equal to the query is dropped; the keyword query is one more.
    expect(r.stages.expansion).toBe('openai:m: 2 queries');
    expect(r.stages.expansionTerms).toEqual(['outage']);
    expect(r.stages.fusion).toBe('rrf k=60 over 3 lists');
    expect(paths(r)).toContain('j.md');
    const sent = server?.seen[0];
    expect(sent?.authorization).toBe('Bearer sk-test');
    expect(sent?.body).toMatchObject({ model: 'm', temperature: 0 });
    expect(JSON.stringify(sent?.body['messages'])).toContain(
      'Query: queue retries\\nDomain: reliability',
    );
  });

  it('ollama: /api/chat with format json, a bare array of phrasings', async () => {
    answer = (path) =>
      path === '/api/chat' ? ollamaChat('["jitter stampede outage"]') : { status: 404 };
    const stage = remote({ kind: 'ollama', url: server?.url ?? '', model: 'llama3.2' });
    const r = await run({ expander: createChatExpander(stage), reranker: features });
    expect(r.stages.expansion).toBe('ollama:llama3.2: 1 query');
    expect(paths(r)).toContain('j.md');
    expect(server?.seen[0]?.body).toMatchObject({
      model: 'llama3.2',
      stream: false,
      format: 'json',
    });
  });

  it('falls back to PRF on a malformed answer, an HTTP error and a timeout, and says which', async () => {
    const prf = await run({ expander: createPrfExpander(), reranker: features });
    const cases: [Answer, string][] = [
      [openAiChat('I would rather not.'), 'malformed answer: no JSON in the model output'],
      [openAiChat('{"queries": [], "keywords": [""]}'), 'malformed answer: no queries or keywords'],
      [{ json: { choices: [] } }, 'malformed answer: no message content'],
      [{ raw: 'not json' }, 'answered with invalid JSON'],
      [{ status: 503, json: { error: 'busy' } }, 'HTTP 503'],
      ['hang', 'timed out after 150 ms'],
    ];
    for (const [reply, reason] of cases) {
      answer = () => reply;
      const r = await run({
        expander: createChatExpander(remote({ timeoutMs: 150 })),
        reranker: features,
      });
      expect(r.stages.expansion).toBe(`${prf.stages.expansion} (fallback: openai:m ${reason})`);
      expect(r.stages.expansionTerms).toEqual(prf.stages.expansionTerms);
      expect(paths(r)).toEqual(paths(prf));
    }
    expect(server?.seen).toHaveLength(cases.length);
  });

  it('says unreachable when nothing listens', async () => {
    const url = server?.url ?? '';
    await server?.close();
    server = undefined;
    const r = await run({ expander: createChatExpander(remote({ url })), reranker: features });
    expect(r.stages.expansion).toMatch(/ \(fallback: openai:m unreachable \(ECONNREFUSED\)\)$/);
  });
});

describe('rerank providers', () => {
  it('a /rerank endpoint decides the order; its relevance becomes the score', async () => {
    answer = (path, body) => {
      if (path !== '/v1/rerank') return { status: 404 };
      const docs = body['documents'] as string[];
      // The dead-letter note first, whatever the features think.
      return {
        json: {
          results: docs.map((d, index) => ({
            index,
            relevance_score: d.startsWith('Dead letters') ? 0.97 : 0.1,
          })),
        },
      };
    };
    const base = await run({ expander: createNoExpander(), reranker: features });
    expect(base.results[0]?.path).toBe('h.md');
    const r = await run({
      expander: createNoExpander(),
      reranker: createProviderReranker(remote({ model: 'r' })),
    });
    expect(r.results[0]?.path).toBe('d.md');
    expect(r.stages.rerank).toBe(`openai:r: ${base.results.length} candidates`);
    const sent = server?.seen[0]?.body;
    expect(sent).toMatchObject({ model: 'r', query: 'queue retries', top_n: base.results.length });
    expect(sent?.['documents']).toHaveLength(base.results.length);
  });

  it('logit scores go through a sigmoid; an index left out is scored 0 and said', async () => {
    answer = (_p, body) => ({
      json: [
        { index: 0, score: -4 },
        { index: 1, score: 6 },
      ].slice(0, (body['documents'] as string[]).length - 1),
    });
    const r = await run({
      expander: createNoExpander(),
      reranker: createProviderReranker(remote({ model: undefined })),
    });
    expect(r.stages.rerank).toMatch(/^openai: \d+ candidates \(\d+ unscored, scored 0\)$/);
    expect(r.results.length).toBeGreaterThan(1);
  });

  it('ollama: one chat turn scores every document 0–10', async () => {
    answer = (path, body) => {
      if (path !== '/api/chat') return { status: 404 };
      const prompt = JSON.stringify(body['messages']);
      const docs = prompt.split('\\n').filter((l) => /^\[\d+\]/.test(l));
      return ollamaChat(
        JSON.stringify({ scores: docs.map((d) => (d.includes('Dead letters') ? 10 : 2)) }),
      );
    };
    const stage = remote({ kind: 'ollama', url: server?.url ?? '', model: 'llama3.2' });
    const r = await run({ expander: createNoExpander(), reranker: createProviderReranker(stage) });
    expect(r.stages.rerank).toMatch(/^ollama:llama3\.2: \d+ candidates$/);
    expect(r.results[0]?.path).toBe('d.md');
  });

  it('falls back to the feature reranker and says why', async () => {
    const base = await run({ expander: createNoExpander(), reranker: features });
    const cases: [RemoteStage['kind'], Answer, string][] = [
      [
        'openai',
        { json: { results: [{ index: 99, relevance_score: 1 }] } },
        'malformed answer: no results[].index/relevance_score',
      ],
      ['openai', { status: 401, json: { error: 'bad key' } }, 'HTTP 401'],
      ['openai', 'hang', 'timed out after 150 ms'],
      [
        'ollama',
        ollamaChat('{"scores": [1]}'),
        `malformed answer: expected ${base.results.length} scores`,
      ],
      [
        'ollama',
        ollamaChat(
          '{"scores": ["high"]}'.replace(
            '"high"',
            Array(base.results.length).fill('"x"').join(','),
          ),
        ),
        'malformed answer: a score is not a number',
      ],
      ['ollama', 'hang', 'timed out after 150 ms'],
    ];
    for (const [kind, reply, reason] of cases) {
      answer = () => reply;
      const stage = remote({
        kind,
        timeoutMs: 150,
        url: kind === 'ollama' ? (server?.url ?? '') : `${server?.url ?? ''}/v1`,
      });
      const r = await run({
        expander: createNoExpander(),
        reranker: createProviderReranker(stage),
      });
      expect(r.stages.rerank).toBe(`features (fallback: ${kind}:m ${reason})`);
      expect(paths(r)).toEqual(paths(base));
    }
  });
});
