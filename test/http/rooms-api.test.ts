// The rooms REST surface the dashboard uses: listing rooms and channels (and the list's change
// stream), reading a channel's envelopes, and `POST /api/rooms/:room/posts` (bearer, or session
// cookie + CSRF; author and kind `user`; empty text refused), into a team room or a channel,
// where an agent on the backplane MCP server (real SDK client) reads it with get_history.
import { afterEach, describe, expect, it } from 'vitest';

import { OPERATOR } from '../backplane/helpers.js';
import { httpSessions, loginSession as login, type Running, TOKEN } from './helpers.js';

const sessions = httpSessions();
afterEach(() => sessions.closeAll());

const bearer = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

const postTo = (svc: Running, room: string, headers: Record<string, string>, body: string) =>
  fetch(`${svc.base}/api/rooms/${encodeURIComponent(room)}/posts`, {
    method: 'POST',
    headers,
    body,
  });

describe('rooms REST', () => {
  it('posts as user with the bearer token; agents read kind=user, never isUser=true', async () => {
    const svc = await sessions.start();
    const res = await postTo(svc, 'team:t1', bearer, JSON.stringify({ text: 'hold the deploy' }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      posted: { seq: 1, roomId: 'team:t1', authorAgentId: 'user', kind: 'user' },
    });
    const page = await svc.core.rooms.read({
      roomId: 'team:t1',
      sinceSeq: 0,
      limit: 10,
      viewer: 'bob',
    });
    expect(page.posts).toEqual([
      {
        seq: 1,
        authorAgentId: 'user',
        kind: 'user',
        wrapped:
          '[Inter-session message · from=user · kind=user · seq=1 · isUser=false]\nhold the deploy',
      },
    ]);
    const read = await fetch(`${svc.base}/api/rooms/team:t1/posts`, { headers: bearer });
    const body = (await read.json()) as { posts: Array<{ createdAt: string }> };
    expect(Date.parse(body.posts[0]?.createdAt ?? '')).toBeGreaterThan(0);
    expect(body.posts[0]?.createdAt).toBe(
      new Date(Date.parse(body.posts[0]?.createdAt ?? '')).toISOString(),
    );
  });

  it('needs auth, and the CSRF token with the session cookie', async () => {
    const svc = await sessions.start();
    const text = JSON.stringify({ text: 'from the page' });
    expect((await postTo(svc, 'team:t1', {}, text)).status).toBe(401);
    const { cookie, csrf } = await login(svc);
    expect((await postTo(svc, 'team:t1', { cookie }, text)).status).toBe(403);
    expect((await postTo(svc, 'team:t1', { cookie, 'x-cairn-csrf': 'nope' }, text)).status).toBe(
      403,
    );
    const ok = await postTo(svc, 'team:t1', { cookie, 'x-cairn-csrf': csrf }, text);
    expect(ok.status).toBe(201);
    expect(await svc.core.rooms.members('team:t1')).toEqual(['user']);
  });

  it('refuses empty text, bad bodies, channels and unknown rooms', async () => {
    const svc = await sessions.start();
    const refused = async (room: string, body: string, status: number, message: RegExp) => {
      const res = await postTo(svc, room, bearer, body);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    };
    await refused('team:t1', JSON.stringify({ text: '  \n ' }), 400, /text: must not be empty/);
    await refused('team:t1', JSON.stringify({}), 400, /^text: /);
    await refused('team:t1', '{not json', 400, /body must be JSON/);
    await refused('team:t1', JSON.stringify({ text: 'x'.repeat(33_000) }), 400, /32 KiB/);
    await refused('lobby', JSON.stringify({ text: 'hi' }), 404, /team:<teamId>/);
    await refused('#nowhere', JSON.stringify({ text: 'hi' }), 404, /channel not found/);
    expect(await svc.core.rooms.read({ roomId: 'team:t1', sinceSeq: 0, limit: 5 })).toEqual({
      posts: [],
      nextSeq: 0,
    });
  });

  it('lists team rooms and channels, and reads a channel as envelopes', async () => {
    const svc = await sessions.start();
    await svc.core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text: 'hi' });
    await svc.core.backplane.send(
      { kind: 'operator' },
      { channel: '#general', type: 'task.update', payload: { id: 'T1', status: 'done' } },
    );
    const list = await fetch(`${svc.base}/api/rooms`, { headers: bearer });
    const { rooms } = (await list.json()) as { rooms: Array<Record<string, unknown>> };
    expect(rooms).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ roomId: '#general', kind: 'channel', members: 1 }),
        expect.objectContaining({ roomId: 'team:t1', name: '#team.t1', kind: 'team', members: 1 }),
      ]),
    );
    const read = await fetch(`${svc.base}/api/rooms/%23general/posts`, { headers: bearer });
    expect(await read.json()).toMatchObject({
      posts: [
        {
          seq: 1,
          authorAgentId: 'operator',
          kind: 'envelope',
          type: 'task.update',
          payload: { id: 'T1', status: 'done' },
        },
      ],
      nextSeq: 1,
    });
  });

  it('posts into a channel as a user text envelope that a backplane agent reads over MCP', async () => {
    const svc = await sessions.start();
    const bp = svc.core.backplane;
    const agent = await bp.register(OPERATOR, { nick: 'worker-1', channels: ['#general'] });
    await expect(bp.register(OPERATOR, { nick: 'User' })).rejects.toThrow(/User is reserved/);
    const { cookie, csrf } = await login(svc);
    const text = JSON.stringify({ text: 'all hands: freeze merges' });
    const res = await postTo(svc, '#general', { cookie, 'x-cairn-csrf': csrf }, text);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      posted: { seq: 1, roomId: '#general', authorAgentId: 'user', kind: 'user' },
    });
    const stored = await svc.core.store.get<{ kind: string; author_agent_id: string }>(
      "SELECT kind, author_agent_id FROM room_posts WHERE room_id = '#general' AND seq = 1",
    );
    expect(stored).toEqual({ kind: 'user', author_agent_id: 'user' });

    const mcp = await sessions.connect(`${svc.base}/api/mcp/backplane`, agent.token);
    const got = await mcp.client.callTool({
      name: 'get_history',
      arguments: { channel: '#general' },
    });
    expect(got.isError).toBeFalsy();
    const first = got.content as Array<{ type: string; text: string }>;
    expect(first[0]?.text).toMatch(
      /^# history: #general \(last 1\)\n\[#general\] <user> type=text id=/,
    );
    expect(got.structuredContent).toMatchObject({
      channel: '#general',
      messages: [
        {
          seq: 1,
          v: 1,
          type: 'text',
          from: 'user',
          to: [],
          payload: { text: 'all hands: freeze merges' },
        },
      ],
    });

    const read = await fetch(`${svc.base}/api/rooms/%23general/posts`, { headers: bearer });
    expect(await read.json()).toMatchObject({
      posts: [{ seq: 1, authorAgentId: 'user', kind: 'user', type: 'text' }],
    });
  });

  it('refuses a post into an archived channel (409) and a malformed channel name (400)', async () => {
    const svc = await sessions.start();
    await svc.core.backplane.channels.create({ name: '#sprint', createdBy: 'operator', ttlMs: 1 });
    await new Promise((r) => setTimeout(r, 10));
    const res = await postTo(svc, '#sprint', bearer, JSON.stringify({ text: 'late' }));
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toMatch(/archived/);
    const bad = await postTo(svc, '#Bad..name', bearer, JSON.stringify({ text: 'x' }));
    expect(bad.status).toBe(400);
  });

  it('streams one rooms event when a channel or a team room appears', async () => {
    const svc = await sessions.start({ sseKeepAliveMs: 200 });
    const abort = new AbortController();
    const res = await fetch(`${svc.base}/api/rooms/stream`, {
      headers: { authorization: `Bearer ${TOKEN}` },
      signal: abort.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = sseEvents(res);
    try {
      await events.until(/: rooms/);
      // The poller's first read (its baseline) happens right after subscribing.
      await new Promise((r) => setTimeout(r, 600));
      await svc.core.backplane.channels.create({ name: '#builds', createdBy: 'operator' });
      await events.until(/event: rooms/);
      await svc.core.rooms.post({ roomId: 'team:t9', authorAgentId: 'ann', text: 'hi' });
      await events.until(/event: rooms/);
    } finally {
      abort.abort();
    }
  });
});

/** Reads a text/event-stream body; `until` resolves once a chunk matching `pattern` arrives. */
function sseEvents(res: Response): { until(pattern: RegExp): Promise<void> } {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async until(pattern) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const at = buffer.search(pattern);
        if (at >= 0) {
          buffer = buffer.slice(at + 1);
          return;
        }
        if (Date.now() > deadline) throw new Error(`no ${String(pattern)} in the stream`);
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
  };
}
