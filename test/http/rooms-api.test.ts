// The rooms REST surface the dashboard uses: listing rooms and channels, reading a channel's
// envelopes, and `POST /api/rooms/:room/posts` (bearer, or session cookie + CSRF; author and
// kind `user`; empty text refused; team rooms only).
import { afterEach, describe, expect, it } from 'vitest';

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
    const body = (await read.json()) as { posts: Array<{ createdAt: number }> };
    expect(body.posts[0]?.createdAt).toBeGreaterThan(0);
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
    await refused('#general', JSON.stringify({ text: 'hi' }), 405, /team rooms only/);
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
});
