// The backplane over real HTTP: POST /mcp and /api/mcp/backplane (SDK clients and raw
// JSON-RPC), every JSON-RPC error code of the spec, bearer principals, and the /v1 REST API.
import { afterEach, describe, expect, it } from 'vitest';

import { httpSessions, type Running, TOKEN } from '../http/helpers.js';
import { ask, credentialsOf, okText, rawRpc } from './helpers.js';

const http = httpSessions();
afterEach(() => http.closeAll());

const json = (body: unknown, token: string | null = TOKEN): Record<string, string> => ({
  'content-type': 'application/json',
  ...(token === null ? {} : { authorization: `Bearer ${token}` }),
  ...(body === undefined ? {} : {}),
});

const UNAUTHORIZED = { jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null };

describe('backplane MCP over HTTP', () => {
  it.each(['/mcp', '/api/mcp/backplane'])(
    '%s answers -32001 for a missing or wrong token',
    async (path) => {
      const s = await http.start();
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      for (const token of [
        null,
        'wrong',
        `${TOKEN}x`,
        'cairn_agent_0123456789abcdef01.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      ]) {
        const r = await rawRpc(`${s.base}${path}`, body, json(body, token));
        expect(r.status).toBe(401);
        expect(r.json).toEqual(UNAUTHORIZED);
      }
    },
  );

  it('accepts a raw initialize asking for 2024-11-05 (and the spec’s bare params: {})', async () => {
    const s = await http.start();
    const init = (params: unknown) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
    const full = init({
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'old', version: '1' },
    });
    for (const body of [full, init({})]) {
      const r = await rawRpc(`${s.base}/mcp`, body, json(body));
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: {
          protocolVersion: '2024-11-05',
          capabilities: { tools: {} },
          serverInfo: { name: 'cairn-backplane' },
        },
      });
    }
  });

  it('serves plain JSON-RPC calls without a session, with the spec’s error codes', async () => {
    const s = await http.start();
    const post = (msg: unknown) => {
      const body = typeof msg === 'string' ? msg : JSON.stringify(msg);
      return rawRpc(`${s.base}/mcp`, body, { authorization: `Bearer ${TOKEN}` });
    };
    const call = (id: number, name: string, args: Record<string, unknown>) =>
      post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const status = await call(2, 'get_status', {});
    expect(status.json).toMatchObject({
      id: 2,
      result: { content: [{ type: 'text', text: 'status: ok\nagents: 0 active, 0 total' }] },
    });
    const nick = await call(3, 'register_agent', {});
    expect(nick.json).toMatchObject({
      id: 3,
      result: { isError: true, content: [{ type: 'text', text: 'nick is required' }] },
    });
    const unknown = await post({ jsonrpc: '2.0', id: 4, method: 'no/such/method' });
    expect(unknown.json).toMatchObject({ id: 4, error: { code: -32601 } });
    const invalid = await call(5, 'get_history', { channel: '#general', limit: 'ten' });
    expect(invalid.json).toMatchObject({
      id: 5,
      result: {
        isError: true,
        content: [
          { type: 'text', text: expect.stringMatching(/^invalid args: limit: /) as unknown },
        ],
        _meta: { denied: { reason: 'invalid_args' } },
      },
    });
    const parse = await post('{"jsonrpc":"2.0","id":6,"method":');
    expect(parse.status).toBe(400);
    expect(parse.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('SDK clients act as the operator or as the agent whose token they hold', async () => {
    const s = await http.start();
    const op = await http.connect(`${s.base}/mcp`, TOKEN);
    const creds = credentialsOf(
      await okText(op.client, 'register_agent', { nick: 'claude-a1b2', channels: ['#general'] }),
    );
    const agent = await http.connect(`${s.base}/api/mcp/backplane`, creds.token);
    expect(
      await okText(agent.client, 'send_message', {
        channel: '#general',
        type: 'agent.hello',
        from: 'operator',
      }),
    ).toBe('message sent to #general');
    const history = await okText(op.client, 'get_history', { channel: '#general' });
    expect(history).toMatch(
      /^# history: #general \(last 1\)\n\[#general\] <claude-a1b2> type=agent\.hello id=[0-9A-Z]{26}$/,
    );
    expect(await okText(op.client, 'get_status')).toBe('status: ok\nagents: 1 active, 1 total');
    // A session belongs to its principal: the agent's session id is useless with another token.
    const sid = agent.transport.sessionId ?? '';
    const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
    const stolen = await rawRpc(`${s.base}/mcp`, body, {
      ...json(body),
      'mcp-session-id': sid,
      accept: 'application/json, text/event-stream',
    });
    expect(stolen.status).toBe(404);
    // Revoked: the next request is refused with -32001.
    await s.core.backplane.agents.revoke('claude-a1b2');
    const after = await ask(agent.client, 'get_status');
    expect(after.kind).toBe('rpc-error');
  });
});

describe('backplane REST', () => {
  const rest = (
    s: Running,
    path: string,
    init: { method?: string; body?: unknown; token?: string | null } = {},
  ) =>
    fetch(`${s.base}${path}`, {
      method: init.method ?? 'GET',
      headers: json(undefined, init.token === undefined ? TOKEN : init.token),
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(10_000),
    });

  it('registers, lists, posts and reads; refusals have statuses', async () => {
    const s = await http.start();
    expect((await rest(s, '/v1/agents', { token: null })).status).toBe(401);
    const reg = await rest(s, '/v1/agents/register', {
      method: 'POST',
      body: { nick: 'rest-1', type: 'orchestrator', channels: ['#fleet'] },
    });
    expect(reg.status).toBe(201);
    const creds = (await reg.json()) as {
      nick: string;
      password: string;
      token: string;
      channels: string[];
    };
    expect(creds).toMatchObject({ nick: 'rest-1', channels: ['#fleet'] });
    expect(
      (await rest(s, '/v1/agents/register', { method: 'POST', body: { nick: 'REST-1' } })).status,
    ).toBe(409);
    const agents = (await (await rest(s, '/v1/agents')).json()) as {
      agents: Array<Record<string, unknown>>;
    };
    expect(agents.agents).toHaveLength(1);
    expect(JSON.stringify(agents)).not.toContain('hash');
    const sent = await rest(s, '/v1/channels/%23fleet/messages', {
      method: 'POST',
      token: creds.token,
      body: { type: 'task.create', payload: { title: 't' }, from: 'x' },
    });
    expect(sent.status).toBe(201);
    expect(await sent.json()).toMatchObject({
      channel: '#fleet',
      seq: 1,
      v: 1,
      from: 'rest-1',
      type: 'task.create',
    });
    const read = (await (await rest(s, '/v1/channels/fleet/messages')).json()) as {
      messages: unknown[];
    };
    expect(read.messages).toHaveLength(1);
    const channels = (await (await rest(s, '/v1/channels')).json()) as {
      channels: Array<{ name: string; members: string[] }>;
    };
    expect(channels.channels.map((c) => c.name)).toEqual(['#fleet', '#general']);
    const big = await rest(s, '/v1/channels/%23fleet/messages', {
      method: 'POST',
      body: { type: 'x', payload: { b: 'y'.repeat(70_000) } },
    });
    expect(big.status).toBe(400);
    expect(await big.json()).toMatchObject({ field: 'payload' });
    expect((await rest(s, '/v1/channels/%23nope/messages')).status).toBe(404);
    const topic = await rest(s, '/v1/channels/%23fleet/topic', {
      method: 'PUT',
      body: { topic: 'ship it' },
    });
    expect(await topic.json()).toMatchObject({ topic: 'ship it', topicSetBy: 'operator' });
    const temp = await rest(s, '/v1/channels', {
      method: 'POST',
      body: { name: '#tmp', ttlSeconds: 60 },
    });
    expect(temp.status).toBe(201);
  });

  it('streams a channel as SSE and resumes after Last-Event-ID without a gap', async () => {
    const s = await http.start();
    const send = (text: string) =>
      s.core.backplane.send(
        { kind: 'operator' },
        { channel: '#general', type: 'text', payload: { text } },
      );
    for (const t of ['one', 'two', 'three']) await send(t);
    const first = await readEvents(`${s.base}/v1/channels/%23general/stream`, {}, 2);
    expect(first.map((e) => [e.id, e.data['payload']])).toEqual([
      ['1', { text: 'one' }],
      ['2', { text: 'two' }],
    ]);
    await send('four');
    const resumed = readEvents(
      `${s.base}/v1/channels/%23general/stream`,
      { 'last-event-id': '2' },
      3,
    );
    setTimeout(() => void send('five'), 100);
    expect(
      (await resumed).map((e) => [e.id, (e.data['payload'] as { text: string }).text]),
    ).toEqual([
      ['3', 'three'],
      ['4', 'four'],
      ['5', 'five'],
    ]);
  });
});

/** Reads `count` SSE events from a stream, then disconnects. */
async function readEvents(url: string, headers: Record<string, string>, count: number) {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), 10_000);
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${TOKEN}`, ...headers },
    signal: ac.signal,
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: Array<{ id: string; data: Record<string, unknown> }> = [];
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id !== undefined && data !== undefined)
          events.push({ id, data: JSON.parse(data) as Record<string, unknown> });
      }
      if (events.length >= count) break;
    }
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
  return events.slice(0, count);
}
