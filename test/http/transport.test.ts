// The tasks server over Streamable HTTP: real SDK clients for the happy path and the session
// lifecycle, raw fetch for the spec's two error texts and for hostile input.
import { request as httpRequest } from 'node:http';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { BAD_SESSION, NO_SESSION } from '../../src/http/index.js';
import { callErr, callOk, textOf } from '../helpers.js';
import {
  ACCEPT_BOTH,
  httpClient,
  initializeBody,
  rawSession,
  rpcMessages,
  type Running,
  startService,
  TOKEN,
} from './helpers.js';

const auth = { authorization: `Bearer ${TOKEN}` };
const jsonHeaders = { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...auth };

async function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; messages: unknown[]; contentType: string | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...jsonHeaders, ...headers },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  const contentType = res.headers.get('content-type');
  return {
    status: res.status,
    contentType,
    messages: text === '' ? [] : rpcMessages(contentType, text),
  };
}

async function rpcErrorOf(res: Response): Promise<{ code: number; message: string }> {
  const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe('2.0');
  return body.error;
}

describe('Streamable HTTP transport', () => {
  let svc: Running;
  const closers: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    svc = await startService();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await svc.close();
  });

  async function connect(): Promise<Awaited<ReturnType<typeof httpClient>>> {
    const c = await httpClient(svc.mcpUrl, TOKEN);
    closers.push(c.close);
    return c;
  }

  it('initializes, lists tools and calls them through the SDK client', async () => {
    const { client } = await connect();
    expect(client.getServerVersion()?.name).toBe('cairn-tasks');
    expect(client.getServerVersion()?.version).toBe(svc.core.version);

    const { tools } = await client.listTools();
    expect(tools).toHaveLength(14);
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['list_tasks', 'get_task', 'create_task', 'claim_task', 'link_task']),
    );

    const task = await callOk<{ id: string; status: string }>(client, 'create_task', {
      title: 'over http',
      teamId: 't1',
    });
    expect(task.status).toBe('todo');
    const listed = await callOk<{ tasks: Array<{ id: string }> }>(client, 'list_tasks', {});
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id]);

    // A spec'd tool-error text.
    const missing = await callErr(client, 'get_task', { taskId: 'no-such-task' });
    expect(missing.text).toBe('not found: no-such-task');
    await callOk(client, 'claim_task', { taskId: task.id, assigneeAgentId: 'a' });
    const conflict = await callErr(client, 'claim_task', { taskId: task.id, assigneeAgentId: 'b' });
    expect(conflict.text).toMatch(/^conflict: /);

    // Invalid arguments are a tool error naming the field (MCP 2025-11-25, SEP-1303).
    const invalid = await callErr(client, 'create_task', { title: '' });
    expect(invalid.text).toMatch(/^invalid args: title: /);
    expect(invalid.meta).toEqual({ denied: { reason: 'invalid_args' } });
  });

  it('issues a session id, reuses it, and DELETE tears the session down', async () => {
    const { client, transport } = await connect();
    const id = transport.sessionId;
    // <replica>.<uuid>: the replica id is random per start unless CAIRN_REPLICA_ID names it.
    expect(id).toMatch(/^[0-9a-f]{8}\.[0-9a-f-]{36}$/);
    await client.listTools();
    await callOk(client, 'list_tasks', {});
    expect(transport.sessionId).toBe(id);
    const mount = svc.http.mounts.get('tasks');
    expect(mount?.sessionCount).toBe(1);

    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    expect(mount?.sessionCount).toBe(0);

    // The old id is gone for every method.
    const reuse = await fetch(svc.mcpUrl, {
      method: 'POST',
      headers: { ...jsonHeaders, 'mcp-session-id': id ?? '', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(reuse.status).toBe(404);
    expect((await rpcErrorOf(reuse)).message).toBe(NO_SESSION);
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(svc.mcpUrl, {
        method,
        headers: { ...auth, accept: 'text/event-stream', 'mcp-session-id': id ?? '' },
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status).toBe(404);
      expect((await rpcErrorOf(res)).message).toBe(BAD_SESSION);
    }
  });

  it('serves a GET SSE stream for an established session', async () => {
    const id = await rawSession(svc.mcpUrl, TOKEN);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 10_000);
    try {
      const res = await fetch(svc.mcpUrl, {
        method: 'GET',
        headers: {
          ...auth,
          accept: 'text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-06-18',
        },
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(res.headers.get('mcp-session-id')).toBe(id);
      // Only one standalone stream per session.
      const second = await fetch(svc.mcpUrl, {
        method: 'GET',
        headers: { ...auth, accept: 'text/event-stream', 'mcp-session-id': id },
        signal: AbortSignal.timeout(10_000),
      });
      expect(second.status).toBe(409);
      await second.body?.cancel();
    } finally {
      controller.abort();
      clearTimeout(timer);
    }
    // The session still answers after the stream went away.
    const list = await post(
      svc.mcpUrl,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    );
    expect(list.status).toBe(200);
    expect(list.messages[0]).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
  });

  it('a POST without a session that is not initialize gets the spec text', async () => {
    const res = await fetch(svc.mcpUrl, {
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(400);
    const error = await rpcErrorOf(res);
    expect(error.message).toBe('No valid session; send an initialize request first.');
    expect(error.message).toBe(NO_SESSION);

    const unknown = await fetch(svc.mcpUrl, {
      method: 'POST',
      headers: { ...jsonHeaders, 'mcp-session-id': 'not-a-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(unknown.status).toBe(404);
    expect((await rpcErrorOf(unknown)).message).toBe(NO_SESSION);
  });

  it('GET and DELETE with a missing or unknown session id get the spec text', async () => {
    for (const method of ['GET', 'DELETE']) {
      for (const sessionHeader of [{}, { 'mcp-session-id': 'deadbeef-unknown' }]) {
        const res = await fetch(svc.mcpUrl, {
          method,
          headers: { ...auth, accept: 'text/event-stream', ...sessionHeader },
          signal: AbortSignal.timeout(10_000),
        });
        expect([400, 404]).toContain(res.status);
        const error = await rpcErrorOf(res);
        expect(error.message).toBe('Invalid or missing MCP session id.');
        expect(error.message).toBe(BAD_SESSION);
      }
    }
  });

  it('answers a malformed JSON body with a parse error and keeps working', async () => {
    const res = await fetch(svc.mcpUrl, {
      method: 'POST',
      headers: jsonHeaders,
      body: '{"jsonrpc": "2.0", "id": 1, "method": "initi',
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(400);
    expect((await rpcErrorOf(res)).code).toBe(-32700);

    // Inside an established session too.
    const id = await rawSession(svc.mcpUrl, TOKEN);
    const inSession = await fetch(svc.mcpUrl, {
      method: 'POST',
      headers: { ...jsonHeaders, 'mcp-session-id': id },
      body: 'not json at all',
      signal: AbortSignal.timeout(10_000),
    });
    expect(inSession.status).toBe(400);
    expect((await rpcErrorOf(inSession)).code).toBe(-32700);

    const { client } = await connect();
    expect((await client.listTools()).tools).toHaveLength(14);
  });

  it('refuses a body over 4 MiB with 413', async () => {
    const big = JSON.stringify({ ...initializeBody(), padding: 'x'.repeat(4 * 1024 * 1024 + 1) });
    const res = await fetch(svc.mcpUrl, {
      method: 'POST',
      headers: jsonHeaders,
      body: big,
      signal: AbortSignal.timeout(20_000),
    });
    expect(res.status).toBe(413);
    await res.body?.cancel();
    const { client } = await connect();
    expect((await client.listTools()).tools).toHaveLength(14);
  });

  it('survives many hostile requests', async () => {
    const url = svc.mcpUrl;
    const bodies = [
      '',
      'null',
      '[]',
      '[{}]',
      '{}',
      '"initialize"',
      '{"jsonrpc":"2.0","id":1,"method":"initialize"}',
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":null}',
      JSON.stringify([initializeBody(1), initializeBody(2)]),
      JSON.stringify({ jsonrpc: '2.0', id: {}, method: 'tools/call' }),
      '\u0000\u0001\u0002',
      '{'.repeat(10_000),
      '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
    ];
    const attempts: Array<() => Promise<unknown>> = [];
    for (const body of bodies) {
      attempts.push(() => post(url, body).catch(() => undefined));
      attempts.push(() => post(url, body, { 'mcp-session-id': 'bogus' }).catch(() => undefined));
      attempts.push(() => post(url, body, { accept: 'text/plain' }).catch(() => undefined));
      attempts.push(() => post(url, body, { 'content-type': 'text/plain' }).catch(() => undefined));
    }
    // initialize with a wrong Accept header: refused by the transport, no session leaks.
    for (let i = 0; i < 10; i++) {
      attempts.push(() =>
        post(url, JSON.stringify(initializeBody(i)), { accept: 'application/json' }),
      );
    }
    for (const method of ['PUT', 'PATCH', 'OPTIONS', 'HEAD']) {
      attempts.push(() =>
        fetch(url, { method, headers: auth, signal: AbortSignal.timeout(10_000) }).then((r) =>
          r.body?.cancel(),
        ),
      );
    }
    // Clients that announce a body and vanish halfway through it.
    for (let i = 0; i < 10; i++) {
      attempts.push(
        () =>
          new Promise<void>((resolve) => {
            const req = httpRequest(url, {
              method: 'POST',
              headers: { ...jsonHeaders, 'content-length': '100000' },
            });
            req.on('error', () => resolve());
            req.on('response', () => resolve());
            req.write('{"jsonrpc":"2.0","id":1,', () => {
              req.destroy();
              resolve();
            });
          }),
      );
    }
    // Run them with bounded concurrency.
    const queue = [...attempts];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) await next();
      }),
    );

    expect(svc.http.mounts.get('tasks')?.sessionCount).toBe(0);
    const health = await fetch(`${svc.base}/healthz`, { signal: AbortSignal.timeout(10_000) });
    expect(health.status).toBe(200);
    const { client } = await connect();
    const created = await client.callTool({
      name: 'create_task',
      arguments: { title: 'still up' },
    });
    expect(textOf(created)).toContain('still up');
  });
});
