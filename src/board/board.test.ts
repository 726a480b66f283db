// Unit tests of the board service over a fresh in-memory store: the state machine as the board
// enforces it, creation caps with small limits, dependency links and task detail.
import { describe, expect, it } from 'vitest';

import { openTestBoard } from '../../test/board-fixture.js';
import { NotFoundError, PolicyError } from '../shared/errors.js';
import { NotHolderError, TransitionError } from './errors.js';
import { canMove, TASK_STATUSES } from './model.js';
import type { BoardOptions } from './types.js';

const openBoard = async (options: BoardOptions = {}) => (await openTestBoard(options)).board;

describe('board state machine', () => {
  for (const from of TASK_STATUSES) {
    it(`enforces every move out of ${from}`, async () => {
      const board = await openBoard();
      for (const to of TASK_STATUSES) {
        const task = await board.createTask({ title: `${from}->${to}`, status: from });
        if (canMove(from, to)) {
          await expect(board.updateStatus(task.id, to)).resolves.toMatchObject({ status: to });
        } else {
          const hint = from === 'done' || from === 'cancelled' ? `${from} is terminal` : 'allowed:';
          const err = await board.updateStatus(task.id, to).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(TransitionError);
          expect((err as Error).message).toMatch(
            new RegExp(`^status change failed: cannot move ${from} → ${to} \\(${hint}`),
          );
          expect((await board.getTask(task.id)).task.status).toBe(from);
        }
      }
    });
  }

  it('treats a same-status move as a no-op that keeps the row untouched', async () => {
    const clock = { t: 1_000 };
    const board = await openBoard({ clock: () => clock.t });
    const task = await board.createTask({ title: 'x', status: 'done' });
    clock.t = 5_000;
    const same = await board.updateStatus(task.id, 'done');
    expect(same).toEqual(task);
  });

  it('clears assignee, runtime and lease when a task goes back to todo', async () => {
    const board = await openBoard();
    const task = await board.createTask({ title: 'x' });
    await board.claimTask({ taskId: task.id, assigneeAgentId: 'a', assigneeRuntime: 'r' });
    const back = await board.updateStatus(task.id, 'todo');
    expect(back).toMatchObject({ assigneeAgentId: null, assigneeRuntime: null });
    expect(back.leaseExpiresAt).toBeNull();
    const again = await board.claimTask({ taskId: task.id, assigneeAgentId: 'b' });
    expect(again.assigneeAgentId).toBe('b');
  });

  it('keeps the assignee through blocked and review, leasing only in_progress', async () => {
    const board = await openBoard({ clock: () => 10_000, leaseMs: 500 });
    const task = await board.createTask({ title: 'x' });
    await board.claimTask({ taskId: task.id, assigneeAgentId: 'a' });
    const blocked = await board.blockTask(task.id);
    expect(blocked).toMatchObject({
      status: 'blocked',
      assigneeAgentId: 'a',
      leaseExpiresAt: null,
    });
    const resumed = await board.updateStatus(task.id, 'in_progress');
    expect(resumed.leaseExpiresAt).toBe(new Date(10_500).toISOString());
    const review = await board.updateStatus(task.id, 'in_review');
    expect(review).toMatchObject({ assigneeAgentId: 'a', leaseExpiresAt: null });
  });

  it('releases only from in_progress', async () => {
    const board = await openBoard();
    for (const status of TASK_STATUSES.filter((s) => s !== 'in_progress')) {
      const task = await board.createTask({ title: status, status });
      await expect(board.releaseTask(task.id)).rejects.toThrow(
        `release failed: task ${task.id} is ${status}, not in_progress`,
      );
      expect((await board.getTask(task.id)).task.status).toBe(status);
    }
    const task = await board.createTask({ title: 'held' });
    await board.claimTask({ taskId: task.id, assigneeAgentId: 'a' });
    await expect(board.releaseTask(task.id)).resolves.toMatchObject({
      status: 'todo',
      assigneeAgentId: null,
    });
  });

  it('prefixes block and unblock refusals', async () => {
    const board = await openBoard();
    const done = await board.createTask({ title: 'd', status: 'done' });
    await expect(board.blockTask(done.id)).rejects.toThrow(/^block failed: cannot move done/);
    await expect(board.unblockTask(done.id)).rejects.toThrow(
      /^unblock failed: task \S+ is done, not blocked$/,
    );
    const task = await board.createTask({ title: 't' });
    expect((await board.blockTask(task.id)).status).toBe('blocked');
    expect((await board.unblockTask(task.id)).status).toBe('todo');
    // Unblocking todo work is a no-op; unblocking claimed work is not a back-door release.
    expect((await board.unblockTask(task.id)).status).toBe('todo');
    await board.claimTask({ taskId: task.id, assigneeAgentId: 'a' });
    await expect(board.unblockTask(task.id)).rejects.toThrow(
      /^unblock failed: task \S+ is in_progress, not blocked$/,
    );
  });

  it('refuses a non-holder and lets the holder or an unknown actor act', async () => {
    const board = await openBoard();
    const task = await board.createTask({ title: 'x' });
    await board.claimTask({ taskId: task.id, assigneeAgentId: 'a' });
    const err = await board.blockTask(task.id, { agentId: 'b' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotHolderError);
    expect((err as Error).message).toBe(`block failed: task ${task.id} is held by a, not b`);
    await expect(board.updateStatus(task.id, 'done', { agentId: 'b' })).rejects.toThrow(
      'status change failed: task',
    );
    await expect(board.releaseTask(task.id, { agentId: 'b' })).rejects.toThrow('held by a');
    expect((await board.getTask(task.id)).task).toMatchObject({ status: 'in_progress' });
    await expect(board.updateStatus(task.id, 'in_review', { agentId: 'a' })).resolves.toBeTruthy();
    await expect(board.updateStatus(task.id, 'done', {})).resolves.toMatchObject({
      status: 'done',
    });
  });

  it('reports unknown and dropped tasks as not found', async () => {
    const board = await openBoard();
    const task = await board.createTask({ title: 'x' });
    await board.dropTask(task.id);
    for (const id of ['nope', task.id]) {
      await expect(board.updateStatus(id, 'done')).rejects.toThrow(`not found: ${id}`);
      await expect(board.getTask(id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(board.addComment({ taskId: id, body: 'b' })).rejects.toThrow('not found');
    }
    expect(await board.listTasks({})).toEqual([]);
  });
});

describe('board creation caps', () => {
  const limits = { maxChildren: 2, maxDepth: 1, rootRateMax: 3, rootRateWindowMs: 60_000 };

  it('applies the depth cap at the configured depth', async () => {
    const board = await openBoard({ limits });
    const root = await board.createCappedTask({ title: 'root' });
    const child = await board.createCappedTask({ title: 'child', parentTaskId: root.id });
    expect(child).toMatchObject({ depth: 1, parentTaskId: root.id });
    const err = await board
      .createCappedTask({ title: 'grandchild', parentTaskId: child.id })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyError);
    expect(err).toMatchObject({
      denied: 'depth_cap',
      message:
        'subtask rejected: parent is at the maximum nesting depth (1); attach the new task higher in the tree',
    });
    const uncapped = await board.createTask({ title: 'grandchild', parentTaskId: child.id });
    expect(uncapped.depth).toBe(2);
  });

  it('counts live children, done and cancelled included, dropped excluded', async () => {
    const board = await openBoard({ limits });
    const parent = await board.createTask({ title: 'p' });
    const a = await board.createCappedTask({ title: 'a', parentTaskId: parent.id });
    await board.createTask({ title: 'b (uncapped surface)', parentTaskId: parent.id });
    await board.updateStatus(a.id, 'cancelled');
    const refusal =
      'subtask rejected: parent already has 2 children (max 2); drop one or attach the new task elsewhere';
    await expect(board.createCappedTask({ title: 'c', parentTaskId: parent.id })).rejects.toThrow(
      refusal,
    );
    await board.dropTask(a.id);
    await board.createCappedTask({ title: 'c', parentTaskId: parent.id });
    await expect(
      board.createCappedTask({ title: 'd', parentTaskId: parent.id }),
    ).rejects.toMatchObject({ denied: 'child_cap' });
    expect((await board.listTasks({})).map((t) => t.title).sort()).toEqual(
      ['b (uncapped surface)', 'c', 'p'].sort(),
    );
  });

  it('rate-limits roots over a rolling window, counting every surface', async () => {
    let now = 1_000_000;
    const board = await openBoard({ limits, clock: () => now });
    await board.createTask({ title: 'via rest' });
    const dropped = await board.createCappedTask({ title: 'r1' });
    await board.dropTask(dropped.id);
    now += 30_000;
    const kept = await board.createCappedTask({ title: 'r2' });
    const err = await board.createCappedTask({ title: 'r3' }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      denied: 'root_rate_cap',
      message: expect.stringMatching(
        /^task rejected: 3 root tasks already created in the last 1 min \(max 3\); /,
      ) as unknown,
    });
    await board.createCappedTask({ title: 'sub', parentTaskId: kept.id });
    now += 29_999;
    await expect(board.createCappedTask({ title: 'r3' })).rejects.toThrow('task rejected');
    now += 1;
    await expect(board.createCappedTask({ title: 'r3' })).resolves.toMatchObject({ depth: 0 });
    await board.createCappedTask({ title: 'r4' });
    await expect(board.createCappedTask({ title: 'r5' })).rejects.toThrow('task rejected: 3 root');
  });

  it('refuses unknown and dropped parents on both create paths', async () => {
    const board = await openBoard({ limits });
    const gone = await board.createTask({ title: 'gone' });
    await board.dropTask(gone.id);
    for (const id of ['missing', gone.id]) {
      for (const create of [board.createTask, board.createCappedTask]) {
        const err = await create({ title: 'x', parentTaskId: id }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(NotFoundError);
        expect(err).toMatchObject({
          message: `parent not found: ${id}`,
          denied: 'parent_not_found',
        });
      }
    }
  });

  it('inherits the parent team unless one is given', async () => {
    const board = await openBoard();
    const root = await board.createTask({ title: 'r', teamId: 't1' });
    const inherit = await board.createCappedTask({ title: 'a', parentTaskId: root.id });
    const own = await board.createCappedTask({ title: 'b', parentTaskId: root.id, teamId: 't2' });
    expect([inherit.teamId, own.teamId]).toEqual(['t1', 't2']);
  });
});

describe('board links and detail', () => {
  it('refuses self, direct and transitive cycles and leaves edges unchanged', async () => {
    const board = await openBoard();
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((title) => board.createTask({ title })),
    );
    if (a === undefined || b === undefined || c === undefined) throw new Error('setup');
    await expect(board.linkTask(a.id, a.id)).rejects.toThrow(
      `linking ${a.id} to ${a.id} would create a dependency cycle`,
    );
    expect(await board.linkTask(a.id, b.id)).toEqual({
      taskId: a.id,
      dependsOnTaskId: b.id,
      created: true,
    });
    await expect(board.linkTask(b.id, a.id)).rejects.toMatchObject({ code: 'cycle' });
    await board.linkTask(b.id, c.id);
    await expect(board.linkTask(c.id, a.id)).rejects.toThrow(
      `linking ${c.id} to ${a.id} would create a dependency cycle`,
    );
    expect((await board.linkTask(a.id, b.id)).created).toBe(false);
    const finish = async (id: string) => {
      await board.updateStatus(id, 'in_progress');
      await board.updateStatus(id, 'done');
    };
    expect(await board.listTasks({ ready: true })).toEqual([expect.objectContaining({ id: c.id })]);
    await finish(c.id);
    expect((await board.listTasks({ ready: true })).map((t) => t.id)).toEqual([b.id]);
    await finish(b.id);
    expect((await board.listTasks({ ready: true })).map((t) => t.id)).toEqual([a.id]);
  });

  it('refuses links to unknown tasks', async () => {
    const board = await openBoard();
    const a = await board.createTask({ title: 'a' });
    await expect(board.linkTask(a.id, 'nope')).rejects.toThrow('not found: nope');
    await expect(board.linkTask('nope', a.id)).rejects.toThrow('not found: nope');
  });

  it('returns ancestors root first and comments in order, scoped by team', async () => {
    let now = 0;
    const board = await openBoard({ clock: () => now });
    const root = await board.createTask({ title: 'root', teamId: 't1' });
    const child = await board.createTask({ title: 'child', parentTaskId: root.id });
    const leaf = await board.createTask({ title: 'leaf', parentTaskId: child.id });
    await board.addComment({ taskId: leaf.id, body: 'first' });
    await board.addComment({ taskId: leaf.id, body: 'second', authorType: 'user' });
    now = 5;
    await board.addComment({ taskId: leaf.id, body: 'third', authorAgentId: 'a' });
    const detail = await board.getTask(leaf.id, { teamId: 't1' });
    expect(detail.task).toEqual(leaf);
    expect(detail.ancestors.map((t) => t.title)).toEqual(['root', 'child']);
    expect(detail.comments.map((c) => [c.body, c.authorType, c.authorAgentId])).toEqual([
      ['first', 'agent', null],
      ['second', 'user', null],
      ['third', 'agent', 'a'],
    ]);
    await expect(board.getTask(leaf.id, { teamId: 't2' })).rejects.toThrow(`not found: ${leaf.id}`);
    expect((await board.getTask(root.id)).ancestors).toEqual([]);
  });

  it('keeps comments and children made in one millisecond in the order they were made', async () => {
    const board = await openBoard({ clock: () => 7 });
    const parent = await board.createTask({ title: 'parent' });
    const bodies = Array.from({ length: 12 }, (_, i) => `c${i}`);
    for (const body of bodies) {
      await board.addComment({ taskId: parent.id, body });
      await board.createTask({ title: body, parentTaskId: parent.id });
    }
    const detail = await board.getTask(parent.id);
    expect(detail.comments.map((c) => c.body)).toEqual(bodies);
    const { children } = await board.getRelations(parent.id);
    expect(children.map((t) => t.title)).toEqual(bodies);
  });
});
