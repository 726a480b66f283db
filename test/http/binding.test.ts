// Signed attach-URL bindings over real HTTP: a scoped token opens exactly the signed binding
// (read-only, team-bound) and cannot be widened; the master token with a bad signature is
// served unbound, with a warning.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { callErr, callOk } from '../helpers.js';
import {
  ACCEPT_BOTH,
  httpSessions,
  initializeStatus,
  mintAttach,
  postInitialize,
  type Running,
  TOKEN,
} from './helpers.js';

const TAMPERED = {
  error: 'unauthorized',
  reason: 'tampered_url',
  message: expect.stringMatching(/^tampered signed URL: .*use the URL as written/) as unknown,
};

describe('signed attach bindings', () => {
  let svc: Running;
  const sessions = httpSessions();
  let t1Task: string;
  let t2Task: string;

  beforeEach(async () => {
    svc = await sessions.start();
    const master = await sessions.connect(svc.mcpUrl, TOKEN);
    t1Task = (
      await callOk<{ id: string }>(master.client, 'create_task', { title: 'a', teamId: 't1' })
    ).id;
    t2Task = (
      await callOk<{ id: string }>(master.client, 'create_task', { title: 'b', teamId: 't2' })
    ).id;
  });
  afterEach(() => sessions.closeAll());

  it('mints a signed URL and a scoped token', async () => {
    const { url, token } = await mintAttach(svc, 'tasks', 'scopeTeamId=t1&readOnly=1');
    const parsed = new URL(url);
    expect(parsed.pathname).toBe('/api/mcp/tasks');
    expect(parsed.searchParams.get('scopeTeamId')).toBe('t1');
    expect(parsed.searchParams.get('readOnly')).toBe('1');
    expect(parsed.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(token).toMatch(/^cairn_scoped_[A-Za-z0-9_-]{20,}$/);
    expect(token).not.toBe(TOKEN);
    expect(url).not.toContain(token.slice('cairn_scoped_'.length));
  });

  it('a scoped token opens a read-only session bound to its team', async () => {
    const { url, token } = await mintAttach(svc, 'tasks', 'scopeTeamId=t1&readOnly=1');
    const { client } = await sessions.connect(url, token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_task', 'list_tasks']);

    for (const args of [{}, { teamId: 't2' }, { teamId: 't1' }]) {
      const listed = await callOk<{ tasks: Array<{ id: string; teamId: string }> }>(
        client,
        'list_tasks',
        args,
      );
      expect(
        listed.tasks.map((t) => t.id),
        JSON.stringify(args),
      ).toEqual([t1Task]);
    }
    expect(await callOk(client, 'get_task', { taskId: t1Task })).toMatchObject({
      task: { id: t1Task },
    });
    expect((await callErr(client, 'get_task', { taskId: t2Task })).text).toBe(
      `not found: ${t2Task}`,
    );
    await expect(
      client.callTool({ name: 'create_task', arguments: { title: 'sneaky' } }),
    ).rejects.toThrow(/-32602/);
  });

  it('an edited URL with the scoped token is refused with 401', async () => {
    const { url, token } = await mintAttach(svc, 'tasks', 'scopeTeamId=t1&readOnly=1');
    expect(await initializeStatus(url, token)).toBe(200);
    const sig = new URL(url).searchParams.get('sig') ?? '';
    const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    const edits: Record<string, (q: URLSearchParams) => void> = {
      'drop readOnly': (q) => q.delete('readOnly'),
      'readOnly=0': (q) => q.set('readOnly', '0'),
      'change scopeTeamId': (q) => q.set('scopeTeamId', 't2'),
      'drop scopeTeamId': (q) => q.delete('scopeTeamId'),
      'add scopeAgentId': (q) => q.set('scopeAgentId', 'boss'),
      'drop sig': (q) => q.delete('sig'),
      'alter sig': (q) => q.set('sig', flipped),
      'empty sig': (q) => q.set('sig', ''),
      'drop everything': (q) => {
        for (const k of [...q.keys()]) q.delete(k);
      },
    };
    for (const [what, edit] of Object.entries(edits)) {
      const edited = new URL(url);
      edit(edited.searchParams);
      const res = await postInitialize(edited.toString(), token);
      expect(res.status, what).toBe(401);
      expect(await res.json(), what).toMatchObject(TAMPERED);
    }
    // A URL signed for another binding does not accept this token either.
    const other = await mintAttach(svc, 'tasks', 'scopeTeamId=t2&readOnly=1');
    const res = await postInitialize(other.url, token);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject(TAMPERED);
    // Its own message, not the one for a missing or wrong bearer token.
    const missing = await postInitialize(url, null);
    expect(await missing.json()).toMatchObject({ reason: 'missing_token' });
    expect(svc.http.mounts.get('tasks')?.sessionCount).toBe(2); // the master's and the one above
  });

  it('with the master token, a missing or wrong sig serves the session unbound and warns', async () => {
    const { url } = await mintAttach(svc, 'tasks', 'scopeTeamId=t1&readOnly=1');
    const warned = (): number =>
      svc.logLines.filter(
        (l) => l['level'] === 40 && String(l['msg']).includes('missing or wrong signature'),
      ).length;

    // Correctly signed + master token: the binding applies.
    const signed = await sessions.connect(url, TOKEN);
    expect((await signed.client.listTools()).tools).toHaveLength(2);
    expect(warned()).toBe(0);

    const noSig = new URL(url);
    noSig.searchParams.delete('sig');
    const badSig = new URL(url);
    badSig.searchParams.set('sig', 'forged');
    const widened = new URL(url);
    widened.searchParams.set('scopeTeamId', 't2');

    for (const [i, u] of [noSig, badSig, widened].entries()) {
      const { client } = await sessions.connect(u.toString(), TOKEN);
      expect((await client.listTools()).tools, u.search).toHaveLength(14);
      const listed = await callOk<{ tasks: Array<{ id: string }> }>(client, 'list_tasks', {});
      expect(listed.tasks.map((t) => t.id).sort(), u.search).toEqual([t1Task, t2Task].sort());
      expect(warned()).toBe(i + 1);
    }
    // The signature warning (PostgreSQL without pgvector also warns once at start).
    const warning = svc.logLines.find(
      (l) => l['level'] === 40 && String(l['msg']).includes('missing or wrong signature'),
    );
    expect(warning).toMatchObject({ server: 'tasks' });
    expect(JSON.stringify(warning)).not.toContain('forged');
  });

  it('a scoped token cannot mint configs or use another session', async () => {
    const { url, token } = await mintAttach(svc, 'tasks', 'scopeTeamId=t1&readOnly=1');
    const config = await fetch(
      `${svc.base}/api/mcp/config?runtime=claude-code&server=tasks&scopeTeamId=t1&readOnly=1`,
      { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) },
    );
    expect(config.status).toBe(403);
    expect(await config.json()).toMatchObject({ error: 'forbidden' });
    const bare = await fetch(`${svc.base}/api/mcp/config?runtime=claude-code&server=tasks`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    expect([401, 403]).toContain(bare.status);
    await bare.text();

    // A session opened with the master token on the same URL is not usable with the scoped one.
    const mastered = await sessions.connect(url, TOKEN);
    const sessionId = mastered.transport.sessionId ?? '';
    const headers = {
      'content-type': 'application/json',
      accept: ACCEPT_BOTH,
      authorization: `Bearer ${token}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    };
    const post = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(post.status).toBe(404);
    expect(await post.json()).toMatchObject({
      error: { message: expect.stringMatching(/No valid session/) },
    });
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(url, { method, headers, signal: AbortSignal.timeout(10_000) });
      expect(res.status, method).toBe(404);
      await res.text();
    }
    // Nor is a session opened by a different scoped token.
    const other = await mintAttach(svc, 'tasks', 'scopeTeamId=t1');
    const otherSession = await sessions.connect(other.url, other.token);
    const cross = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': otherSession.transport.sessionId ?? '' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(cross.status).toBe(404);
    await cross.text();
    // The master session survived all of that.
    expect((await mastered.client.listTools()).tools).toHaveLength(2);
  });
});
