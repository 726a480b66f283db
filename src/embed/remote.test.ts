// The HTTP providers against a real local server that imitates the Ollama and OpenAI APIs.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { EmbedError } from './errors.js';
import { createOllamaEmbedder } from './ollama.js';
import { createOpenAiEmbedder } from './openai.js';

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; input?: string[] };
}
interface Reply {
  status?: number;
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}
type Handler = (req: Seen, n: number) => Reply;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Starts a fake API on 127.0.0.1:0; every request is recorded in `seen`. */
async function fakeApi(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const request: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(text) as Seen['body'],
      };
      seen.push(request);
      const reply = handler(request, seen.length);
      setTimeout(() => {
        res.writeHead(reply.status ?? 200, {
          'content-type': 'application/json',
          ...reply.headers,
        });
        res.end(reply.raw ?? JSON.stringify(reply.json ?? {}));
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A fake 3-d embedding that differs per text and is not unit length. */
const fakeVector = (text: string): number[] => [text.length, 2, text.charCodeAt(0) % 7];
const ollamaOk = (req: Seen): Reply => ({
  json: { embeddings: (req.body.input ?? []).map(fakeVector) },
});
const openAiOk = (req: Seen): Reply => ({
  json: {
    object: 'list',
    data: (req.body.input ?? [])
      .map((t, index) => ({ object: 'embedding', embedding: fakeVector(t), index }))
      .reverse(),
  },
});

const fast = { maxRetries: 2, retryBaseMs: 1, timeoutMs: 2000 };
const norm = (v: Float32Array): number => Math.hypot(...v);

async function rejection(promise: Promise<unknown>): Promise<EmbedError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EmbedError);
  return err as EmbedError;
}

describe('ollama', () => {
  it('posts { model, input } to /api/embed and returns unit vectors in order', async () => {
    const api = await fakeApi(ollamaOk);
    const embedder = createOllamaEmbedder({ host: api.url, model: 'nomic-embed-text', ...fast });
    expect(embedder.model).toBe('ollama:nomic-embed-text');
    expect(embedder.dims()).toBeUndefined();
    const vectors = await embedder.embed(['alpha', 'be']);
    expect(api.seen).toHaveLength(1);
    expect(api.seen[0]).toMatchObject({
      method: 'POST',
      path: '/api/embed',
      body: { model: 'nomic-embed-text', input: ['alpha', 'be'] },
    });
    expect(api.seen[0]?.headers['content-type']).toBe('application/json');
    expect(embedder.dims()).toBe(3);
    expect(vectors.map(norm)).toEqual([expect.closeTo(1, 6), expect.closeTo(1, 6)]);
    const [a] = vectors;
    expect(a?.[0]).toBeCloseTo(5 / Math.hypot(...fakeVector('alpha')), 6);
  });

  it('splits big inputs into batches and keeps input order', async () => {
    const api = await fakeApi(ollamaOk);
    const embedder = createOllamaEmbedder({ host: api.url, model: 'm', batchSize: 2, ...fast });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    const vectors = await embedder.embed(texts);
    expect(api.seen.map((s) => s.body.input)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
    const single = await embedder.embed(['dddd']);
    expect(Array.from(vectors[3] ?? [])).toEqual(Array.from(single[0] ?? []));
  });

  it('answers [] for no texts without a request, and sends "" as a space', async () => {
    const api = await fakeApi(ollamaOk);
    const embedder = createOllamaEmbedder({ host: api.url, model: 'm', ...fast });
    expect(await embedder.embed([])).toEqual([]);
    expect(api.seen).toHaveLength(0);
    await embedder.embed(['']);
    expect(api.seen[0]?.body.input).toEqual([' ']);
  });

  it('retries a 429, then succeeds', async () => {
    const api = await fakeApi((req, n) =>
      n === 1 ? { status: 429, json: { error: 'busy' } } : ollamaOk(req),
    );
    const embedder = createOllamaEmbedder({ host: api.url, model: 'm', ...fast });
    expect(await embedder.embed(['x'])).toHaveLength(1);
    expect(api.seen).toHaveLength(2);
  });

  it('gives up after maxRetries on 500 with a typed error', async () => {
    const api = await fakeApi(() => ({ status: 500, json: { error: 'gpu on fire' } }));
    const embedder = createOllamaEmbedder({ host: api.url, model: 'm', ...fast });
    const err = await rejection(embedder.embed(['x']));
    expect(api.seen).toHaveLength(3);
    expect(err).toMatchObject({ code: 'embed_failed', reason: 'http', status: 500 });
    expect(err.message).toContain('HTTP 500');
    expect(err.message).toContain('gpu on fire');
    expect(err.message).toContain('after 3 attempts');
  });

  it('does not retry a missing model (404)', async () => {
    const api = await fakeApi(() => ({
      status: 404,
      json: { error: 'model "m" not found, try pulling it first' },
    }));
    const embedder = createOllamaEmbedder({ host: api.url, model: 'm', ...fast });
    const err = await rejection(embedder.embed(['x']));
    expect(api.seen).toHaveLength(1);
    expect(err).toMatchObject({ reason: 'http', status: 404 });
    expect(err.message).toContain('try pulling it first');
  });

  it('times out once, without retrying', async () => {
    const api = await fakeApi((req) => ({ ...ollamaOk(req), delayMs: 1000 }));
    const embedder = createOllamaEmbedder({ host: api.url, model: 'm', ...fast, timeoutMs: 100 });
    const err = await rejection(embedder.embed(['x']));
    expect(err.reason).toBe('timeout');
    expect(err.message).toContain('100 ms');
    expect(api.seen).toHaveLength(1);
  });

  it('reports an unreachable server', async () => {
    const api = await fakeApi(ollamaOk);
    await closers.splice(0)[0]?.();
    const embedder = createOllamaEmbedder({ host: api.url, model: 'm', ...fast, maxRetries: 1 });
    const err = await rejection(embedder.embed(['x']));
    expect(err.reason).toBe('unreachable');
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('rejects malformed answers', async () => {
    const replies: Reply[] = [
      { raw: 'not json' },
      { json: { embedding: [1, 2] } },
      { json: { embeddings: [[1, 'x']] } },
      { json: { embeddings: [[1, 2]] } }, // one vector for two texts
      { json: { embeddings: [[1, 2], [1]] } }, // ragged
      {
        json: {
          embeddings: [
            [0, 0],
            [1, 1],
          ],
        },
      }, // zero vector
    ];
    const api = await fakeApi((_req, n) => replies[n - 1] ?? {});
    const embedder = createOllamaEmbedder({ host: api.url, model: 'm', ...fast });
    for (const _ of replies) {
      const err = await rejection(embedder.embed(['x', 'y']));
      expect(err.reason).toBe('malformed');
    }
  });

  it('refuses a change of dimensions between calls', async () => {
    const api = await fakeApi((req, n) =>
      n === 1 ? ollamaOk(req) : { json: { embeddings: [[1, 2, 3, 4]] } },
    );
    const embedder = createOllamaEmbedder({ host: api.url, model: 'm', ...fast });
    await embedder.embed(['x']);
    const err = await rejection(embedder.embed(['y']));
    expect(err.reason).toBe('malformed');
    expect(err.message).toContain('4-dimensional vector where 3 were expected');
  });
});

describe('openai', () => {
  const key = 'sk-test-0123456789abcdef';

  it('posts { model, input } with the bearer key and sorts answers by index', async () => {
    const api = await fakeApi(openAiOk);
    const embedder = createOpenAiEmbedder({
      baseUrl: `${api.url}/v1`,
      apiKey: key,
      model: 'text-embedding-3-small',
      ...fast,
    });
    expect(embedder.model).toBe('openai:text-embedding-3-small');
    const vectors = await embedder.embed(['one', 'three', 'fifteen']);
    expect(api.seen[0]).toMatchObject({
      method: 'POST',
      path: '/v1/embeddings',
      body: { model: 'text-embedding-3-small', input: ['one', 'three', 'fifteen'] },
    });
    expect(api.seen[0]?.headers.authorization).toBe(`Bearer ${key}`);
    expect(vectors.map((v) => v[0])).toEqual(
      ['one', 'three', 'fifteen'].map((t) =>
        expect.closeTo(t.length / Math.hypot(...fakeVector(t)), 6),
      ),
    );
    expect(embedder.dims()).toBe(3);
  });

  it('sends no Authorization header to a keyless server, and batches', async () => {
    const api = await fakeApi(openAiOk);
    const embedder = createOpenAiEmbedder({ baseUrl: api.url, model: 'e', batchSize: 3, ...fast });
    const vectors = await embedder.embed(['a', 'b', 'c', 'd']);
    expect(vectors).toHaveLength(4);
    expect(api.seen.map((s) => s.path)).toEqual(['/embeddings', '/embeddings']);
    expect(api.seen.map((s) => s.body.input?.length)).toEqual([3, 1]);
    expect(api.seen[0]?.headers.authorization).toBeUndefined();
  });

  it('honours Retry-After on 429, then succeeds', async () => {
    const api = await fakeApi((req, n) =>
      n === 1
        ? {
            status: 429,
            headers: { 'retry-after': '0' },
            json: { error: { message: 'slow down' } },
          }
        : openAiOk(req),
    );
    const embedder = createOpenAiEmbedder({
      baseUrl: api.url,
      apiKey: key,
      model: 'e',
      ...fast,
      retryBaseMs: 60_000,
    });
    expect(await embedder.embed(['x'])).toHaveLength(1);
    expect(api.seen).toHaveLength(2);
  });

  it('never puts the API key in an error, even when the server echoes it', async () => {
    const api = await fakeApi((req) => ({
      status: 500,
      json: { error: { message: `internal error for ${req.headers.authorization ?? ''}` } },
    }));
    const embedder = createOpenAiEmbedder({ baseUrl: api.url, apiKey: key, model: 'e', ...fast });
    const err = await rejection(embedder.embed(['x']));
    expect(api.seen).toHaveLength(3);
    expect(err).toMatchObject({ reason: 'http', status: 500 });
    expect(err.message).toContain('[redacted]');
    const everything = [err.message, String(err.stack), JSON.stringify(err)].join('\n');
    expect(everything).not.toContain(key);
  });

  it('does not retry a 401 and does not leak the key', async () => {
    const api = await fakeApi(() => ({
      status: 401,
      json: { error: { message: `Incorrect API key provided: ${key}` } },
    }));
    const embedder = createOpenAiEmbedder({ baseUrl: api.url, apiKey: key, model: 'e', ...fast });
    const err = await rejection(embedder.embed(['x']));
    expect(api.seen).toHaveLength(1);
    expect(err.status).toBe(401);
    expect(err.message).not.toContain(key);
  });

  it('times out', async () => {
    const api = await fakeApi((req) => ({ ...openAiOk(req), delayMs: 1000 }));
    const embedder = createOpenAiEmbedder({
      baseUrl: api.url,
      model: 'e',
      ...fast,
      timeoutMs: 100,
    });
    expect((await rejection(embedder.embed(['x']))).reason).toBe('timeout');
  });

  it('rejects malformed answers', async () => {
    const replies: Reply[] = [
      { json: { embeddings: [[1, 2]] } }, // Ollama's shape
      {
        json: {
          data: [
            { embedding: [1, 2], index: 0 },
            { embedding: [3, 4], index: 0 },
          ],
        },
      },
      {
        json: {
          data: [
            { embedding: [1, 2], index: 0 },
            { embedding: [3, 4], index: 5 },
          ],
        },
      },
      { json: { data: [{ embedding: [1, 2], index: 0 }] } },
      {
        json: {
          data: [
            { embedding: 'AAAA', index: 0 },
            { embedding: 'AAAA', index: 1 },
          ],
        },
      }, // base64
    ];
    const api = await fakeApi((_req, n) => replies[n - 1] ?? {});
    const embedder = createOpenAiEmbedder({ baseUrl: api.url, model: 'e', ...fast });
    for (const _ of replies) {
      expect((await rejection(embedder.embed(['x', 'y']))).reason).toBe('malformed');
    }
  });

  it('rejects embed after close', async () => {
    const embedder = createOpenAiEmbedder({ baseUrl: 'http://127.0.0.1:9', model: 'e' });
    await embedder.close();
    expect(embedder.isReady()).toBe(false);
    expect((await rejection(embedder.embed(['x']))).reason).toBe('unavailable');
  });
});
