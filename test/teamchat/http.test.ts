// The teamchat server over Streamable HTTP (signed attach URLs from /api/mcp/config) and the
// room REST views: /api/rooms/:room/posts and the Server-Sent Events stream.
import { request } from 'node:http';

import { afterEach, describe, expect, it } from 'vitest';

import { callOk } from '../helpers.js';
import { httpClient, httpSessions, rawRequest, type Running, TOKEN } from '../http/helpers.js';
import type { Page, Posted } from './helpers.js';

interface Snippet {
  url: string;
  snippet: string;
}

/** The bound attach URL and its scoped token, as Cairn writes them. */
async function attach(
  svc: Running,
  params: Record<string, string>,
): Promise<{ url: string; token: string }> {
  const query = new URLSearchParams({ runtime: 'cursor', server: 'teamchat', ...params });
  const res = await fetch(`${svc.base}/api/mcp/config?${query.toString()}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as Snippet;
  const doc = JSON.parse(body.snippet) as {
    mcpServers: Record<string, { headers: { Authorization: string } }>;
  };
  const auth = doc.mcpServers['cairn-teamchat']?.headers.Authorization ?? '';
  return { url: body.url, token: auth.replace(/^Bearer /, '') };
}

/** Reads SSE events from a streaming fetch until `count` posts arrived (or 10 s). */
async function readEvents(
  res: Response,
  count: number,
): Promise<{ ids: string[]; data: Page['posts']; raw: string }> {
  const reader = res.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  let raw = '';
  const deadline = Date.now() + 10_000;
  const events = (): string[] => raw.split('\n\n').filter((e) => e.includes('event: post'));
  while (events().length < count && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    raw += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  const parsed = events().map((e) => ({
    id: /^id: (\d+)$/m.exec(e)?.[1] ?? '',
    data: JSON.parse(/^data: (.*)$/m.exec(e)?.[1] ?? 'null') as Page['posts'][number],
  }));
  return { ids: parsed.map((p) => p.id), data: parsed.map((p) => p.data), raw };
}

describe('teamchat over HTTP', () => {
  const http = httpSessions();
  afterEach(() => http.closeAll());

  it('binds room and author from the signed URL; args cannot override them', async () => {
    const s = await http.start();
    const ann = await attach(s, { roomTeamId: 't1', postAuthorAgentId: 'ann' });
    expect(ann.url).toMatch(/\/api\/mcp\/teamchat\?.*roomTeamId=t1.*&sig=/);
    expect(ann.token).toMatch(/^cairn_scoped_/);
    const { client } = await http.connect(ann.url, ann.token);
    expect(client.getServerVersion()?.name).toBe('cairn-teamchat');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('team_delegate');
    const out = await callOk<Posted>(client, 'team_chat_post', {
      text: 'over http',
      authorAgentId: 'lead',
      teamId: 't2',
    });
    expect(out.posted).toEqual({ seq: 1, roomId: 'team:t1', authorAgentId: 'ann' });
  });

  it('lists team_delegate only with the signed delegate=1, and refuses an edited URL', async () => {
    const s = await http.start();
    const lead = await attach(s, { roomTeamId: 't1', postAuthorAgentId: 'lead', delegate: '1' });
    expect(lead.url).toContain('delegate=1');
    const { client } = await http.connect(lead.url, lead.token);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('team_delegate');

    const plain = await attach(s, { roomTeamId: 't1', postAuthorAgentId: 'ann' });
    for (const edited of [
      `${plain.url}&delegate=1`,
      plain.url.replace('postAuthorAgentId=ann', 'postAuthorAgentId=lead'),
      lead.url.replace('roomTeamId=t1', 'roomTeamId=t2'),
    ]) {
      await expect(httpClient(edited, plain.token)).rejects.toThrow(/401|unauthorized/i);
    }
    // With the master token a forged binding is ignored: the session is unbound.
    const forged = await http.connect(
      `${plain.url.replace(/sig=[^&]+/, 'sig=forged')}&delegate=1`,
      TOKEN,
    );
    const tools = (await forged.client.listTools()).tools.map((t) => t.name);
    expect(tools).not.toContain('team_delegate');
  });

  it('serves posts as JSON and as Server-Sent Events, resumable by Last-Event-ID', async () => {
    const s = await http.start({ sseKeepAliveMs: 100 });
    const auth = { authorization: `Bearer ${TOKEN}` };
    await s.core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text: 'one' });
    await s.core.rooms.post({ roomId: 'team:t1', authorAgentId: 'bob', text: 'two' });

    const page = await fetch(`${s.base}/api/rooms/team%3At1/posts?sinceSeq=1`, { headers: auth });
    expect(page.status).toBe(200);
    const body = (await page.json()) as Page;
    expect(body.nextSeq).toBe(2);
    expect(body.posts.map((p) => [p.seq, p.authorAgentId])).toEqual([[2, 'bob']]);

    const res = await fetch(`${s.base}/api/rooms/team:t1/stream`, {
      headers: { ...auth, 'last-event-id': '1' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    setTimeout(() => {
      void s.core.rooms.post({ roomId: 'team:t1', authorAgentId: 'cara', text: 'three, live' });
    }, 250);
    const got = await readEvents(res, 2);
    expect(got.ids).toEqual(['2', '3']);
    expect(got.data.map((p) => p.authorAgentId)).toEqual(['bob', 'cara']);
    expect(got.data[1]?.wrapped).toBe(
      '[Inter-session message · from=cara · kind=message · seq=3 · isUser=false]\nthree, live',
    );
    expect(got.raw).toContain(': keep-alive');
  });

  it('guards the room routes like the rest of /api', async () => {
    const s = await http.start();
    const url = `${s.base}/api/rooms/team%3At1/stream`;
    expect((await rawRequest(url)).status).toBe(401);
    expect((await rawRequest(url, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    const evil = await rawRequest(url, {
      headers: { authorization: `Bearer ${TOKEN}`, host: 'evil.example' },
    });
    expect(evil.status).toBe(403);
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await rawRequest(`${s.base}/api/rooms/lobby/posts`, { headers: auth })).status).toBe(
      404,
    );
    const bad = await rawRequest(`${s.base}/api/rooms/team%3At1/posts?limit=501`, {
      headers: auth,
    });
    expect(bad.status).toBe(400);
    const post = await rawRequest(url, { method: 'POST', headers: auth });
    expect(post.status).toBe(405);
  });

  it('ends a stream when its client disconnects, and closes promptly with one open', async () => {
    const s = await http.start({ sseKeepAliveMs: 60_000 });
    const req = request(`${s.base}/api/rooms/team%3At1/stream`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const status = await new Promise<number | undefined>((resolve, reject) => {
      req.once('response', (res) => resolve(res.statusCode));
      req.once('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    req.destroy();
    const connections = (): Promise<number> =>
      new Promise((resolve) => s.http.server.getConnections((_e, n) => resolve(n)));
    const deadline = Date.now() + 2000;
    while ((await connections()) > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await connections()).toBe(0);
    await s.core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text: 'after leave' });
    const open = await fetch(`${s.base}/api/rooms/team%3At1/stream`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(open.status).toBe(200);
    const started = Date.now();
    await s.close();
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
