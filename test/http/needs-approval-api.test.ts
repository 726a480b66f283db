// The board's "Needs approval" data over a real HTTP service: gated calls made through an SDK
// client over Streamable HTTP name their task (`_meta["cairn/taskId"]`), the board list marks
// each task with its pending approvals (one query for the whole list), /api/approvals shows and
// filters by taskId, and the board stream announces an approval appearing and being decided.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { httpSessions, type Running, TOKEN } from './helpers.js';

const sessions = httpSessions();
afterEach(() => sessions.closeAll());

const bearer = { authorization: `Bearer ${TOKEN}` };

interface ListedTask {
  id: string;
  pendingApprovals: Array<{ id: string; tool: string; expiresAt: string }>;
}

async function boardTasks(svc: Running): Promise<Map<string, ListedTask>> {
  const res = await fetch(`${svc.base}/api/board/tasks`, { headers: bearer });
  expect(res.status).toBe(200);
  const { tasks } = (await res.json()) as { tasks: ListedTask[] };
  return new Map(tasks.map((t) => [t.id, t]));
}

async function approvals(svc: Running, query = ''): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${svc.base}/api/approvals${query}`, { headers: bearer });
  expect(res.status).toBe(200);
  return ((await res.json()) as { approvals: Array<Record<string, unknown>> }).approvals;
}

/** Reads `GET /api/board/stream` in the background; `count()` is the `board` events so far. */
async function boardStream(svc: Running) {
  const ctrl = new AbortController();
  const res = await fetch(`${svc.base}/api/board/stream`, { headers: bearer, signal: ctrl.signal });
  const reader = res.body?.getReader();
  let text = '';
  const done = (async () => {
    for (;;) {
      const chunk = await reader?.read().catch(() => undefined);
      if (chunk === undefined || chunk.done) return;
      text += new TextDecoder().decode(chunk.value);
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  return {
    count: () => text.split('event: board').length - 1,
    close: async () => {
      ctrl.abort();
      await done;
    },
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('Needs approval over REST', () => {
  it('marks each task with its pending approvals and follows decisions live', async () => {
    const svc = await sessions.start();
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((title) => svc.core.board.createTask({ title })),
    );
    const tools = await sessions.connect(`${svc.base}/api/mcp/tools`, TOKEN);
    const stream = await boardStream(svc);
    const gated = (path: string, taskId?: string) =>
      tools.client.callTool({
        name: 'delete_path',
        arguments: { path },
        ...(taskId === undefined ? {} : { _meta: { 'cairn/taskId': taskId } }),
      });
    const calls = [gated('/a', a?.id), gated('/b', b?.id), gated('/none')];
    await until('three pending approvals', async () => (await approvals(svc)).length === 3);
    await until('a board event', () => stream.count() >= 1);

    const spy = vi.spyOn(svc.core.broker, 'pendingApprovalsByTask');
    const listed = await boardTasks(svc);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    const pending = await approvals(svc);
    const forA = pending.find((x) => x['taskId'] === a?.id);
    expect(listed.get(a?.id ?? '')?.pendingApprovals).toEqual([
      { id: forA?.['id'], tool: 'delete_path', expiresAt: forA?.['expiresAt'] },
    ]);
    expect(listed.get(b?.id ?? '')?.pendingApprovals).toHaveLength(1);
    expect(listed.get(c?.id ?? '')?.pendingApprovals).toEqual([]);
    expect(pending.map((x) => x['taskId']).sort()).toEqual([a?.id, b?.id, null].sort());
    expect(await approvals(svc, `?taskId=${a?.id ?? ''}`)).toEqual([forA]);

    const seen = stream.count();
    await svc.core.broker.decide(String(forA?.['id']), 'allow_once', 'test');
    await until('a board event after the decision', () => stream.count() > seen);
    expect((await boardTasks(svc)).get(a?.id ?? '')?.pendingApprovals).toEqual([]);
    for (const x of await approvals(svc)) {
      await svc.core.broker.decide(String(x['id']), 'deny', 'test');
    }
    const results = await Promise.all(calls);
    expect(results.map((r) => r.isError === true)).toEqual([false, true, true]);
    await stream.close();
  });
});
