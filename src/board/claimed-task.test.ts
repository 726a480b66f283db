// Unit tests of the two reads the tools server links a gated call to a task with: taskExists
// (live tasks only) and claimedTaskOf (in_progress, this assignee, unexpired lease, newest claim
// or update first), over a fresh in-memory store and an injected clock.
import { describe, expect, it } from 'vitest';

import { openTestBoard } from '../../test/board-fixture.js';

const T0 = Date.UTC(2030, 0, 1);

const openBoard = async (clock: () => number) =>
  (await openTestBoard({ clock, leaseMs: 1_000 })).board;

describe('taskExists', () => {
  it('is true for a live task and false for an unknown or dropped one', async () => {
    const board = await openBoard(() => T0);
    const task = await board.createTask({ title: 'x' });
    expect(await board.taskExists(task.id)).toBe(true);
    expect(await board.taskExists('no-such-task')).toBe(false);
    await board.dropTask(task.id);
    expect(await board.taskExists(task.id)).toBe(false);
  });
});

describe('claimedTaskOf', () => {
  it('returns the newest claim or update of the agent, not others or other statuses', async () => {
    let now = T0;
    const board = await openBoard(() => now);
    const [a, b, c] = [
      await board.createTask({ title: 'a' }),
      await board.createTask({ title: 'b' }),
      await board.createTask({ title: 'c' }),
    ];
    expect(await board.claimedTaskOf('ann')).toBeNull();
    await board.claimTask({ taskId: b.id, assigneeAgentId: 'ann' });
    now += 10;
    await board.claimTask({ taskId: a.id, assigneeAgentId: 'ann' });
    now += 10;
    await board.claimTask({ taskId: c.id, assigneeAgentId: 'bob' });
    expect((await board.claimedTaskOf('ann'))?.id).toBe(a.id);
    now += 10;
    await board.renewClaim({ taskId: b.id, assigneeAgentId: 'ann' });
    expect((await board.claimedTaskOf('ann'))?.id).toBe(b.id);
    await board.updateStatus(b.id, 'in_review');
    expect((await board.claimedTaskOf('ann'))?.id).toBe(a.id);
    expect((await board.claimedTaskOf('bob'))?.id).toBe(c.id);
  });

  it('ignores a claim whose lease has expired and a dropped task', async () => {
    let now = T0;
    const board = await openBoard(() => now);
    const a = await board.createTask({ title: 'a' });
    const b = await board.createTask({ title: 'b' });
    await board.claimTask({ taskId: a.id, assigneeAgentId: 'ann' });
    await board.claimTask({ taskId: b.id, assigneeAgentId: 'ann' });
    await board.dropTask(b.id);
    expect((await board.claimedTaskOf('ann'))?.id).toBe(a.id);
    now += 1_000;
    expect(await board.claimedTaskOf('ann')).toBeNull();
  });
});
