// The dashboard's REST surface over a real HTTP service: login codes → session cookie, CSRF on
// cookie writes, the cookie never opening an MCP mount, the board routes and the change stream.
import { afterEach, describe, expect, it } from 'vitest';

import { httpClient, httpSessions, type Running, TOKEN } from './helpers.js';

const sessions = httpSessions();
afterEach(() => sessions.closeAll());

const bearer = { authorization: `Bearer ${TOKEN}` };

async function login(svc: Running): Promise<{ cookie: string; csrf: string }> {
  const minted = await fetch(`${svc.base}/api/auth/login-codes`, {
    method: 'POST',
    headers: bearer,
  });
  expect(minted.status).toBe(201);
  const { code } = (await minted.json()) as { code: string };
  const res = await fetch(`${svc.base}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ code }),
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Strict/);
  const again = await fetch(`${svc.base}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ code }),
  });
  expect(again.status).toBe(401);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { cookie: setCookie.split(';')[0] ?? '', csrf: csrfToken };
}

describe('dashboard REST', () => {
  it('logs in with a one-time code and needs the CSRF token on writes', async () => {
    const svc = await sessions.start();
    const task = await svc.core.board.createTask({ title: 'a', status: 'todo' });
    const { cookie, csrf } = await login(svc);
    const list = await fetch(`${svc.base}/api/board/tasks`, { headers: { cookie } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { tasks: unknown[] }).tasks).toHaveLength(1);
    const url = `${svc.base}/api/board/tasks/${task.id}/status`;
    const body = JSON.stringify({ status: 'in_progress' });
    const noCsrf = await fetch(url, { method: 'POST', headers: { cookie }, body });
    expect(noCsrf.status).toBe(403);
    const ok = await fetch(url, {
      method: 'POST',
      headers: { cookie, 'x-cairn-csrf': csrf },
      body,
    });
    expect(ok.status).toBe(200);
    const mcp = await fetch(svc.mcpUrl, { method: 'POST', headers: { cookie }, body: '{}' });
    expect(mcp.status).toBe(401);
    const session = await fetch(`${svc.base}/api/auth/session`, { headers: { cookie } });
    expect(await session.json()).toMatchObject({ kind: 'human', csrfToken: csrf });
    const mint = await fetch(`${svc.base}/api/auth/login-codes`, {
      method: 'POST',
      headers: { cookie, 'x-cairn-csrf': csrf },
    });
    expect(mint.status).toBe(403);
  });

  it('enforces the state machine and serves the task graph', async () => {
    const svc = await sessions.start();
    const parent = await svc.core.board.createTask({ title: 'parent' });
    const child = await svc.core.board.createTask({ title: 'child', parentTaskId: parent.id });
    const h = { ...bearer, 'content-type': 'application/json' };
    const base = `${svc.base}/api/board/tasks`;
    const bad = await fetch(`${base}/${child.id}/status`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ status: 'done' }),
    });
    expect(bad.status).toBe(409);
    expect(((await bad.json()) as { message: string }).message).toMatch(/cannot move todo → done/);
    const link = await fetch(`${base}/${parent.id}/dependencies`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ dependsOnTaskId: child.id }),
    });
    expect(link.status).toBe(200);
    const comment = await fetch(`${base}/${child.id}/comments`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ body: 'hello' }),
    });
    expect(((await comment.json()) as { comment: unknown }).comment).toMatchObject({
      authorType: 'user',
    });
    const detail = (await (await fetch(`${base}/${child.id}`, { headers: bearer })).json()) as {
      ancestors: Array<{ id: string }>;
      dependents: Array<{ id: string }>;
      comments: unknown[];
    };
    expect(detail.ancestors.map((t) => t.id)).toEqual([parent.id]);
    expect(detail.dependents.map((t) => t.id)).toEqual([parent.id]);
    expect(detail.comments).toHaveLength(1);
    const unlink = await fetch(`${base}/${parent.id}/dependencies/${child.id}`, {
      method: 'DELETE',
      headers: bearer,
    });
    expect(await unlink.json()).toMatchObject({ removed: true });
    const ready = (await (await fetch(`${base}?ready=1`, { headers: bearer })).json()) as {
      tasks: unknown[];
    };
    expect(ready.tasks).toHaveLength(2);
    expect((await fetch(`${base}/nope`, { headers: bearer })).status).toBe(404);
  });

  it('serves the status history in the task detail, the REST move recorded as user', async () => {
    const svc = await sessions.start();
    const mcp = await httpClient(`${svc.base}/api/mcp/tasks`, TOKEN);
    const created = await mcp.client.callTool({ name: 'create_task', arguments: { title: 'h' } });
    await mcp.close();
    const task = created.structuredContent as { id: string };
    await svc.core.board.claimTask({ taskId: task.id, assigneeAgentId: 'a' });
    const url = `${svc.base}/api/board/tasks/${task.id}`;
    const h = { ...bearer, 'content-type': 'application/json' };
    const move = async (status: string) =>
      fetch(`${url}/status`, { method: 'POST', headers: h, body: JSON.stringify({ status }) });
    expect((await move('in_review')).status).toBe(200);
    expect((await move('backlog')).status).toBe(409);
    const detail = (await (await fetch(url, { headers: bearer })).json()) as {
      history: Array<
        Record<'fromStatus' | 'toStatus' | 'actor' | 'actorClient' | 'actorVia', string>
      >;
    };
    const by = detail.history.map((e) => [e.fromStatus, e.toStatus, e.actor]);
    expect(by).toEqual([
      [null, 'todo', null],
      ['todo', 'in_progress', 'a'],
      ['in_progress', 'in_review', 'user'],
    ]);
    // The unbound MCP session is named by its client and transport; the page's move by `dashboard`.
    const via = detail.history.map((e) => [e.actorClient, e.actorVia]);
    expect(via).toEqual([
      ['cairn-http-test', 'http'],
      [null, null],
      [null, 'dashboard'],
    ]);
  });

  it('streams a board event when a task changes', async () => {
    const svc = await sessions.start();
    const ctrl = new AbortController();
    const res = await fetch(`${svc.base}/api/board/stream`, {
      headers: bearer,
      signal: ctrl.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body?.getReader();
    let text = '';
    await new Promise((r) => setTimeout(r, 300));
    await svc.core.board.createTask({ title: 'live' });
    while (!text.includes('event: board')) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    ctrl.abort();
    expect(text).toContain('event: board');
  });

  it('streams an approvals event when a call waits and again when it is decided', async () => {
    const svc = await sessions.start();
    const ctrl = new AbortController();
    const res = await fetch(`${svc.base}/api/approvals/stream`, {
      headers: bearer,
      signal: ctrl.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body?.getReader();
    let text = '';
    const events = (): number => text.split('event: approvals').length - 1;
    const until = async (n: number): Promise<void> => {
      while (events() < n) {
        const chunk = await reader?.read();
        if (chunk === undefined || chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
    };
    await new Promise((r) => setTimeout(r, 300));
    const call = svc.core.broker
      .call({
        tool: 'delete_path',
        args: { path: '/tmp/y' },
        caller: 'a1',
      })
      .catch((err: unknown) => err);
    await until(1);
    const [pending] = await svc.core.broker.listApprovals({ status: 'pending' });
    await svc.core.broker.decide(pending?.id ?? 'missing', 'deny', 'test');
    await until(2);
    ctrl.abort();
    expect(await call).toMatchObject({ code: 'tool_denied' });
    expect(events()).toBe(2);
  });
  it('lets the session cookie list and decide approvals, with CSRF on the decision', async () => {
    const svc = await sessions.start();
    const call = svc.core.broker.call({
      tool: 'delete_path',
      args: { path: '/tmp/x' },
      caller: 'a1',
    });
    const { cookie, csrf } = await login(svc);
    let pending: Array<{ id: string; risk: string | null }> = [];
    while (pending.length === 0) {
      const res = await fetch(`${svc.base}/api/approvals`, { headers: { cookie } });
      expect(res.status).toBe(200);
      pending = ((await res.json()) as { approvals: typeof pending }).approvals;
    }
    expect(pending[0]?.risk).toBe('destructive');
    const url = `${svc.base}/api/approvals/${pending[0]?.id ?? ''}`;
    const body = JSON.stringify({ decision: 'allow_once' });
    expect((await fetch(url, { method: 'POST', headers: { cookie }, body })).status).toBe(403);
    const ok = await fetch(url, {
      method: 'POST',
      headers: { cookie, 'x-cairn-csrf': csrf },
      body,
    });
    expect(ok.status).toBe(200);
    expect(((await call).data as { path: string }).path).toBe('/tmp/x');
    const audit = await fetch(`${svc.base}/api/audit?tool=delete_path`, { headers: { cookie } });
    expect(((await audit.json()) as { entries: unknown[] }).entries.length).toBeGreaterThan(3);
  });
});
