// Broker units over an in-memory store for the task link of approvals: the resolver is asked
// only when a call waits for a human, its answer lands on the row and the `pending` audit row,
// and the by-task view keeps only pending, unexpired, linked approvals.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { openSqliteStore, type Store } from '../store/index.js';
import { createBroker } from './broker.js';

let store: Store | undefined;
afterEach(() => store?.close());

type Broker = ReturnType<typeof createBroker>;

/** Starts a gated call and waits until its approval row exists. */
async function waiting(broker: Broker, taskId: string | null, path = '/x') {
  const before = new Set((await broker.listApprovals({})).map((a) => a.id));
  const resolveTask = vi.fn(() => Promise.resolve(taskId));
  const call = broker
    .call({ tool: 'delete_path', args: { path }, caller: 'c', resolveTask })
    .catch((err: unknown) => err);
  for (;;) {
    const rows = await broker.listApprovals({});
    const row = rows.find((a) => !before.has(a.id));
    if (row !== undefined) return { row, call, resolveTask };
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('approvals linked to a task', () => {
  it('asks the resolver only for gated calls and records its answer', async () => {
    store = await openSqliteStore(':memory:');
    const broker = createBroker(store, { config: { approvalPollMs: 5 } });
    const resolveTask = vi.fn(() => Promise.resolve('t1'));
    await broker.call({ tool: 'echo', args: { message: 'hi' }, caller: 'c', resolveTask });
    expect(resolveTask).not.toHaveBeenCalled();

    const linked = await waiting(broker, 't1');
    expect(linked.resolveTask).toHaveBeenCalledTimes(1);
    expect(linked.row).toMatchObject({ status: 'pending', taskId: 't1' });
    const audit = await broker.listAudit({ callId: linked.row.callId, step: 'approval' });
    expect(audit.entries.at(-1)?.detail).toMatchObject({ approvalId: linked.row.id, taskId: 't1' });
    const unlinked = await waiting(broker, null);
    expect(unlinked.row.taskId).toBeNull();
    expect(await broker.listApprovals({ status: 'pending', taskId: 't1' })).toEqual([
      expect.objectContaining({ id: linked.row.id }),
    ]);
    await broker.decide(linked.row.id, 'allow_once');
    await broker.decide(unlinked.row.id, 'deny');
    expect(await linked.call).toMatchObject({ data: { path: '/x' } });
    expect(await unlinked.call).toMatchObject({ reason: 'approval_denied' });
    expect((await broker.getApproval(linked.row.id)).taskId).toBe('t1');
    expect(await broker.listApprovals({ status: 'pending', taskId: 't1' })).toEqual([]);
  });

  it('groups pending, unexpired, linked approvals by task, oldest first', async () => {
    store = await openSqliteStore(':memory:');
    let now = 1_000;
    const broker = createBroker(store, {
      clock: () => now,
      config: { approvalTtlMs: 100, approvalPollMs: 5 },
    });
    const first = await waiting(broker, 't1', '/a');
    now += 10;
    const second = await waiting(broker, 't1', '/b');
    const other = await waiting(broker, 't2', '/c');
    const none = await waiting(broker, null, '/d');
    const byTask = await broker.pendingApprovalsByTask();
    expect([...byTask.keys()].sort()).toEqual(['t1', 't2']);
    expect(byTask.get('t1')?.map((m) => m.id)).toEqual([first.row.id, second.row.id]);
    expect(byTask.get('t2')).toEqual([
      { id: other.row.id, tool: 'delete_path', createdAt: 1_010, expiresAt: 1_110 },
    ]);
    await broker.decide(other.row.id, 'deny');
    expect((await broker.pendingApprovalsByTask()).has('t2')).toBe(false);
    now = 1_100;
    expect([...(await broker.pendingApprovalsByTask()).keys()]).toEqual(['t1']);
    now = 1_110;
    expect((await broker.pendingApprovalsByTask()).size).toBe(0);
    for (const w of [first, second, none]) {
      expect(await w.call).toMatchObject({ reason: 'approval_expired' });
    }
  });
});

describe('the task approvals mark', () => {
  it('changes when a linked call starts waiting and again when it is decided', async () => {
    store = await openSqliteStore(':memory:');
    const broker = createBroker(store, { config: { approvalPollMs: 5 } });
    const marks = [await broker.taskApprovalsMark()];
    const unlinked = await waiting(broker, null);
    await broker.decide(unlinked.row.id, 'deny');
    await unlinked.call;
    expect(await broker.taskApprovalsMark()).toBe(marks[0]);
    const linked = await waiting(broker, 't1');
    marks.push(await broker.taskApprovalsMark());
    await broker.decide(linked.row.id, 'deny');
    await linked.call;
    marks.push(await broker.taskApprovalsMark());
    // Before and after differ although no approval is pending at either moment.
    expect(new Set(marks).size).toBe(3);
    expect(await broker.pendingApprovalsByTask()).toEqual(new Map());
  });
});
