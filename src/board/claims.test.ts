// Unit tests of claims over a fresh in-memory store: the atomic claim, claim-next-ready order
// and readiness, and leases against an injected clock.
import { describe, expect, it } from 'vitest';

import { openTestBoard } from '../../test/board-fixture.js';
import { ConflictError, PolicyError } from '../shared/errors.js';
import type { Queryable, Store } from '../store/index.js';
import { createBoard } from './board.js';
import { NotHolderError } from './errors.js';
import type { BoardOptions } from './types.js';

const T0 = Date.UTC(2030, 0, 1);

const openBoard = async (options: BoardOptions = {}) => (await openTestBoard(options)).board;

describe('claimTask', () => {
  it('claims a todo task once; the loser gets a conflict naming the holder', async () => {
    const board = await openBoard({ clock: () => T0, leaseMs: 1_000 });
    const task = await board.createTask({ title: 'x' });
    const results = await Promise.allSettled(
      ['a', 'b', 'c'].map((agent) => board.claimTask({ taskId: task.id, assigneeAgentId: agent })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(2);
    const winner = (await board.getTask(task.id)).task;
    expect(winner).toMatchObject({
      status: 'in_progress',
      leaseExpiresAt: '2030-01-01T00:00:01.000Z',
    });
    for (const r of lost) {
      expect(r.reason).toBeInstanceOf(ConflictError);
      expect((r.reason as Error).message).toBe(
        `conflict: task ${task.id} is not claimable (status in_progress, assigned to ${winner.assigneeAgentId}); another agent won, do not retry`,
      );
    }
  });

  it('refuses non-todo tasks and unknown ids', async () => {
    const board = await openBoard();
    const backlog = await board.createTask({ title: 'b', status: 'backlog' });
    await expect(board.claimTask({ taskId: backlog.id, assigneeAgentId: 'a' })).rejects.toThrow(
      /^conflict: task .* \(status backlog\)/,
    );
    await expect(board.claimTask({ taskId: 'nope', assigneeAgentId: 'a' })).rejects.toThrow(
      'not found: nope',
    );
  });
});

describe('claimTask with dependencies', () => {
  it('refuses while a live dependency is not done, naming it; claims once it is', async () => {
    const board = await openBoard();
    const dep = await board.createTask({ title: 'write the "schema"\nfirst' });
    const task = await board.createTask({ title: 'use it' });
    await board.linkTask(task.id, dep.id);
    for (const via of ['claim', 'assign'] as const) {
      const err = await board
        .claimTask({ taskId: task.id, assigneeAgentId: 'a', via })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PolicyError);
      expect((err as PolicyError).denied).toBe('dependencies_unmet');
      expect((err as Error).message).toBe(
        `claim refused: task ${task.id} has 1 unfinished dependency: ${dep.id} "write the \\"schema\\"\\nfirst" (todo); it is claimable once they are done (list_tasks ready=true shows claimable work)`,
      );
    }
    expect((await board.getTask(task.id)).task).toMatchObject({
      status: 'todo',
      assigneeAgentId: null,
    });
    expect((await board.history(task.id)).map((e) => e.reason)).toEqual(['create']);
    await board.claimTask({ taskId: dep.id, assigneeAgentId: 'b' });
    await board.updateStatus(dep.id, 'done');
    await expect(board.claimTask({ taskId: task.id, assigneeAgentId: 'a' })).resolves.toMatchObject(
      {
        status: 'in_progress',
      },
    );
  });

  it('lists at most five unfinished dependencies, counts the rest, and skips dropped and done ones', async () => {
    const board = await openBoard();
    const task = await board.createTask({ title: 'last' });
    const deps = [];
    for (let i = 0; i < 8; i += 1) {
      const dep = await board.createTask({
        title: `dep ${i} ${'x'.repeat(100)}`,
        status: 'backlog',
      });
      await board.linkTask(task.id, dep.id);
      deps.push(dep);
    }
    await board.dropTask(deps[0]?.id ?? '');
    await board.updateStatus(deps[1]?.id ?? '', 'cancelled');
    const err = (await board
      .claimTask({ taskId: task.id, assigneeAgentId: 'a' })
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/has 7 unfinished dependencies: /);
    expect(err.message).toMatch(/, and 2 more; /);
    expect(err.message).not.toContain(deps[0]?.id);
    expect(err.message).toContain(`${deps[1]?.id} "dep 1 `);
    expect(err.message).toContain('(cancelled)');
    expect(err.message).toContain('…"');
    expect(err.message.length).toBeLessThan(1200);
  });

  it('a conflict still wins over unmet dependencies for a task that is not claimable anyway', async () => {
    const board = await openBoard();
    const dep = await board.createTask({ title: 'dep', status: 'backlog' });
    const task = await board.createTask({ title: 'task', status: 'backlog' });
    await board.linkTask(task.id, dep.id);
    await expect(board.claimTask({ taskId: task.id, assigneeAgentId: 'a' })).rejects.toBeInstanceOf(
      ConflictError,
    );
  });

  it("reads the dependencies inside the claim's write transaction, before the claiming update", async () => {
    const { board, store } = await openTestBoard();
    const dep = await board.createTask({ title: 'dep' });
    const task = await board.createTask({ title: 'task' });
    await board.linkTask(task.id, dep.id);
    const log: Array<{ sql: string; inWrite: boolean }> = [];
    const record = (q: Queryable, inWrite: boolean): Queryable => ({
      dialect: q.dialect,
      all: (sql, params) => (log.push({ sql, inWrite }), q.all(sql, params)),
      get: (sql, params) => (log.push({ sql, inWrite }), q.get(sql, params)),
      run: (sql, params) => (log.push({ sql, inWrite }), q.run(sql, params)),
    });
    const watched: Store = {
      ...store,
      ...record(store, false),
      write: (fn) => store.write((tx) => fn(record(tx, true))),
      read: (fn) => store.read((tx) => fn(record(tx, false))),
    };
    const traced = createBoard(watched);
    await expect(traced.claimTask({ taskId: task.id, assigneeAgentId: 'a' })).rejects.toThrow(
      /unfinished dependency/,
    );
    const depRead = log.findIndex((l) => /FROM task_dependencies/.test(l.sql));
    expect(depRead).toBeGreaterThanOrEqual(0);
    expect(log.filter((l) => /task_dependencies/.test(l.sql)).every((l) => l.inWrite)).toBe(true);
    // Done now: the same transaction reads the dependencies first, then claims.
    await board.claimTask({ taskId: dep.id, assigneeAgentId: 'b' });
    await board.updateStatus(dep.id, 'done');
    log.length = 0;
    await traced.claimTask({ taskId: task.id, assigneeAgentId: 'a' });
    const order = log.map((l) => l.sql);
    const read = order.findIndex((sql) => /FROM task_dependencies/.test(sql));
    const claim = order.findIndex((sql) => /SET status = 'in_progress'/.test(sql));
    expect(read).toBeGreaterThanOrEqual(0);
    expect(claim).toBeGreaterThan(read);
    expect(log.every((l) => l.inWrite)).toBe(true);
  });
});

describe('claimNextReady', () => {
  it('picks the highest priority, then the oldest, then null', async () => {
    let now = T0;
    const board = await openBoard({ clock: () => now });
    const low = await board.createTask({ title: 'low', priority: 1 });
    now += 1;
    const highOld = await board.createTask({ title: 'high old', priority: 5 });
    now += 1;
    await board.createTask({ title: 'high new', priority: 5 });
    await board.createTask({ title: 'negative', priority: -3 });
    const order: string[] = [];
    for (let t = await board.claimNextReady({ assigneeAgentId: 'a' }); t !== null;) {
      order.push(t.title);
      expect(t).toMatchObject({ status: 'in_progress', assigneeAgentId: 'a' });
      t = await board.claimNextReady({ assigneeAgentId: 'a' });
    }
    expect(order).toEqual(['high old', 'high new', 'low', 'negative']);
    expect(highOld.id).not.toBe(low.id);
  });

  it('breaks ties by creation order even within one millisecond', async () => {
    const board = await openBoard({ clock: () => T0 });
    const titles = Array.from({ length: 12 }, (_, i) => `t${i}`);
    for (const title of titles) await board.createTask({ title });
    expect((await board.listTasks({ ready: true })).map((t) => t.title)).toEqual(titles);
    const claimed: string[] = [];
    for (const _ of titles) {
      const t = await board.claimNextReady({ assigneeAgentId: 'a' });
      claimed.push(t?.title ?? 'none');
    }
    expect(claimed).toEqual(titles);
  });

  it('skips unready work and respects the team', async () => {
    const board = await openBoard();
    const dep = await board.createTask({ title: 'dep', teamId: 't1', priority: -1 });
    const blocked = await board.createTask({ title: 'waits', teamId: 't1', priority: 9 });
    await board.linkTask(blocked.id, dep.id);
    await board.createTask({ title: 'other team', teamId: 't2', priority: 10 });
    await board.createTask({ title: 'backlog', teamId: 't1', status: 'backlog', priority: 10 });
    const first = await board.claimNextReady({ assigneeAgentId: 'a', teamId: 't1' });
    expect(first?.title).toBe('dep');
    expect(await board.claimNextReady({ assigneeAgentId: 'a', teamId: 't1' })).toBeNull();
    await board.updateStatus(dep.id, 'done');
    const next = await board.claimNextReady({ assigneeAgentId: 'b', teamId: 't1' });
    expect(next).toMatchObject({ title: 'waits', assigneeAgentId: 'b' });
  });

  it('ignores dependencies on dropped tasks', async () => {
    const board = await openBoard();
    const dep = await board.createTask({ title: 'dep', status: 'backlog' });
    const task = await board.createTask({ title: 'task' });
    await board.linkTask(task.id, dep.id);
    expect(await board.listTasks({ ready: true })).toEqual([]);
    await board.dropTask(dep.id);
    expect((await board.listTasks({ ready: true })).map((t) => t.id)).toEqual([task.id]);
  });
});

describe('leases', () => {
  async function claimed(leaseMs = 1_000) {
    let now = T0;
    const clock = { advance: (ms: number) => (now += ms) };
    const board = await openBoard({ clock: () => now, leaseMs });
    const task = await board.createTask({ title: 'x' });
    await board.claimTask({ taskId: task.id, assigneeAgentId: 'a', assigneeRuntime: 'rt' });
    return { board, task, clock };
  }

  it('holds until the lease runs out, then returns the task to todo with a note', async () => {
    const { board, task, clock } = await claimed();
    clock.advance(999);
    expect((await board.listTasks({}))[0]).toMatchObject({ status: 'in_progress' });
    clock.advance(1);
    const [back] = await board.listTasks({});
    expect(back).toMatchObject({
      status: 'todo',
      assigneeAgentId: null,
      assigneeRuntime: null,
      leaseExpiresAt: null,
    });
    const { comments } = await board.getTask(task.id);
    expect(comments).toEqual([
      expect.objectContaining({
        authorType: 'system',
        body: 'lease expired: claim by a returned the task to todo',
      }),
    ]);
    expect(await board.sweepExpiredLeases()).toBe(0);
  });

  it('frees expired work for claimTask, claimNextReady and the sweep', async () => {
    const one = await claimed();
    one.clock.advance(1_000);
    await expect(
      one.board.claimTask({ taskId: one.task.id, assigneeAgentId: 'b' }),
    ).resolves.toMatchObject({ assigneeAgentId: 'b' });

    const two = await claimed();
    two.clock.advance(5_000);
    const next = await two.board.claimNextReady({ assigneeAgentId: 'c' });
    expect(next).toMatchObject({ id: two.task.id, assigneeAgentId: 'c' });

    const three = await claimed();
    three.clock.advance(1_000);
    expect(await three.board.sweepExpiredLeases()).toBe(1);
    expect((await three.board.getTask(three.task.id)).task.status).toBe('todo');
  });

  it('renews from now for the holder only', async () => {
    const { board, task, clock } = await claimed();
    clock.advance(900);
    const renewed = await board.renewClaim({ taskId: task.id, assigneeAgentId: 'a' });
    expect(renewed.leaseExpiresAt).toBe(new Date(T0 + 1_900).toISOString());
    clock.advance(600);
    expect((await board.listTasks({}))[0]?.status).toBe('in_progress');
    const err = await board
      .renewClaim({ taskId: task.id, assigneeAgentId: 'b' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotHolderError);
    expect((err as Error).message).toBe(
      `renew failed: task ${task.id} is in_progress, held by a; claim it again instead`,
    );
    clock.advance(400);
    await expect(board.renewClaim({ taskId: task.id, assigneeAgentId: 'a' })).rejects.toThrow(
      `renew failed: task ${task.id} is todo, unclaimed; claim it again instead`,
    );
    await expect(board.renewClaim({ taskId: 'nope', assigneeAgentId: 'a' })).rejects.toThrow(
      'not found: nope',
    );
  });

  it('never expires work that is not in_progress', async () => {
    const { board, task, clock } = await claimed();
    await board.updateStatus(task.id, 'in_review');
    clock.advance(10_000);
    expect((await board.listTasks({}))[0]).toMatchObject({
      status: 'in_review',
      assigneeAgentId: 'a',
    });
  });
});

describe('reads after a lease expires', () => {
  it('get_task returns the expired claim to todo before answering', async () => {
    let now = T0;
    const board = await openBoard({ clock: () => now, leaseMs: 1_000 });
    const task = await board.createTask({ title: 'x' });
    await board.claimTask({ taskId: task.id, assigneeAgentId: 'a' });
    now += 999;
    expect((await board.getTask(task.id)).task.status).toBe('in_progress');
    now += 1;
    const detail = await board.getTask(task.id);
    expect(detail.task).toMatchObject({
      status: 'todo',
      assigneeAgentId: null,
      leaseExpiresAt: null,
    });
    expect(detail.comments.map((c) => [c.authorType, c.body])).toEqual([
      ['system', 'lease expired: claim by a returned the task to todo'],
    ]);
  });
});
