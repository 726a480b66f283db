// Unit tests of the task event log over a fresh in-memory store: every kind of status change
// writes exactly one event in its own transaction, refusals and no-ops write none, and the
// lease sweep records `lease` as the actor.
import { describe, expect, it } from 'vitest';

import { openTestBoard } from '../../test/board-fixture.js';
import type { BoardOptions } from './types.js';

const T0 = Date.UTC(2030, 0, 1);

async function openBoard(options: BoardOptions = {}) {
  const { board, store } = await openTestBoard(options);
  const count = async (): Promise<number> =>
    (await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM task_events'))?.n ?? -1;
  return { board, count };
}

const moves = async (board: Awaited<ReturnType<typeof openBoard>>['board'], id: string) =>
  (await board.history(id)).map((e) => [e.fromStatus, e.toStatus, e.actor, e.reason]);

describe('task history', () => {
  it('records a create from null with the creating actor', async () => {
    const { board } = await openBoard({ clock: () => T0 });
    const root = await board.createCappedTask(
      { title: 'r', status: 'backlog' },
      { agentId: 'a', client: 'claude-code', via: 'http' },
    );
    const plain = await board.createTask({ title: 'p' });
    expect(await board.history(root.id)).toEqual([
      {
        id: expect.any(Number) as number,
        taskId: root.id,
        at: '2030-01-01T00:00:00.000Z',
        fromStatus: null,
        toStatus: 'backlog',
        actor: 'a',
        actorClient: 'claude-code',
        actorVia: 'http',
        reason: 'create',
      },
    ]);
    expect(await moves(board, plain.id)).toEqual([[null, 'todo', null, 'create']]);
  });

  it('writes exactly one event per claim, assign, release, move, block and unblock', async () => {
    const { board, count } = await openBoard();
    const t = await board.createTask({ title: 't' });
    const u = await board.createTask({ title: 'u' });
    const n = await board.createTask({ title: 'n' });
    const steps: Array<() => Promise<unknown>> = [
      () => board.claimTask({ taskId: t.id, assigneeAgentId: 'a' }),
      () => board.releaseTask(t.id, { agentId: 'a' }),
      () =>
        board.claimTask({ taskId: u.id, assigneeAgentId: 'b', via: 'assign', assignedBy: 'lead' }),
      () => board.blockTask(u.id, { agentId: 'b' }),
      () => board.unblockTask(u.id),
      () => board.updateStatus(u.id, 'backlog', { name: 'user' }),
      () => board.claimNextReady({ assigneeAgentId: 'c' }),
    ];
    for (const step of steps) {
      const before = await count();
      await step();
      expect(await count()).toBe(before + 1);
    }
    expect(await moves(board, t.id)).toEqual([
      [null, 'todo', null, 'create'],
      ['todo', 'in_progress', 'a', 'claim'],
      ['in_progress', 'todo', 'a', 'release'],
      ['todo', 'in_progress', 'c', 'claim next ready'],
    ]);
    expect(await moves(board, u.id)).toEqual([
      [null, 'todo', null, 'create'],
      ['todo', 'in_progress', 'lead', 'assign to b'],
      ['in_progress', 'blocked', 'b', 'block'],
      ['blocked', 'todo', null, 'unblock'],
      ['todo', 'backlog', 'user', 'status'],
    ]);
    expect(await moves(board, n.id)).toHaveLength(1);
  });

  it('writes nothing for a refused transition or a same-status no-op', async () => {
    const { board, count } = await openBoard();
    const t = await board.createTask({ title: 't', status: 'done' });
    const held = await board.createTask({ title: 'h' });
    await board.claimTask({ taskId: held.id, assigneeAgentId: 'a' });
    const before = await count();
    const refusals = [
      board.updateStatus(t.id, 'todo'),
      board.releaseTask(t.id),
      board.unblockTask(held.id),
      board.updateStatus(held.id, 'done', { agentId: 'b' }),
      board.claimTask({ taskId: held.id, assigneeAgentId: 'b' }),
    ];
    for (const refused of refusals) await expect(refused).rejects.toThrow();
    await board.updateStatus(t.id, 'done');
    await board.unblockTask((await board.createTask({ title: 'x' })).id);
    expect(await count()).toBe(before + 1);
  });

  it("records a lease expiry as the 'lease' actor, once", async () => {
    const clock = { t: T0 };
    const { board, count } = await openBoard({ clock: () => clock.t, leaseMs: 1_000 });
    const t = await board.createTask({ title: 't' });
    await board.claimTask({ taskId: t.id, assigneeAgentId: 'a' });
    clock.t = T0 + 5_000;
    const before = await count();
    expect(await board.sweepExpiredLeases()).toBe(1);
    expect(await board.sweepExpiredLeases()).toBe(0);
    expect(await count()).toBe(before + 1);
    const last = (await board.history(t.id)).at(-1);
    expect(last).toMatchObject({
      fromStatus: 'in_progress',
      toStatus: 'todo',
      actor: 'lease',
      reason: 'lease expired: claim by a',
      at: '2030-01-01T00:00:05.000Z',
    });
  });

  it('refuses the history of an unknown task', async () => {
    const { board } = await openBoard();
    await expect(board.history('nope')).rejects.toThrow(/not found: nope/);
  });
});
