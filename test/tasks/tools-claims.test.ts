// Tasks server claims through a real SDK client: claim_task / assign_task conflicts,
// claim_next_ready order and scope, and leases (expiry, renewal) on an injected clock.
import { afterEach, describe, expect, it } from 'vitest';

import type { Task, TaskDetail } from '../../src/board/index.js';
import { callErr, callOk, fakeClock, tasksSessions } from '../helpers.js';

const sessions = tasksSessions();
afterEach(() => sessions.closeAll());

const LEASE_MS = 60_000;

describe('claim_task and assign_task', () => {
  for (const tool of ['claim_task', 'assign_task']) {
    it(`${tool} claims a todo task and returns it; a second claim is a conflict`, async () => {
      const clock = fakeClock();
      const { client } = await sessions.open({ clock: clock.now, leaseMs: LEASE_MS });
      const task = await callOk<Task>(client, 'create_task', { title: 't' });
      const claimed = await callOk<Task>(client, tool, {
        taskId: task.id,
        assigneeAgentId: 'a',
        assigneeRuntime: 'codex',
      });
      expect(claimed).toMatchObject({
        id: task.id,
        status: 'in_progress',
        assigneeAgentId: 'a',
        assigneeRuntime: 'codex',
        leaseExpiresAt: new Date(clock.now() + LEASE_MS).toISOString(),
      });
      for (const agent of ['b', 'a']) {
        const err = await callErr(client, tool, { taskId: task.id, assigneeAgentId: agent });
        expect(err.text).toBe(
          `conflict: task ${task.id} is not claimable (status in_progress, assigned to a); another agent won, do not retry`,
        );
        expect(err.meta?.['denied']).toBeUndefined();
      }
      const { task: after } = await callOk<TaskDetail>(client, 'get_task', { taskId: task.id });
      expect(after).toEqual(claimed);
    });
  }

  it('claim_task and assign_task refuse a task whose dependencies are not done', async () => {
    const { client } = await sessions.open();
    const dep = await callOk<Task>(client, 'create_task', { title: 'migrate the db' });
    const task = await callOk<Task>(client, 'create_task', { title: 'ship' });
    await callOk(client, 'link_task', { taskId: task.id, dependsOnTaskId: dep.id });
    for (const tool of ['claim_task', 'assign_task']) {
      const err = await callErr(client, tool, { taskId: task.id, assigneeAgentId: 'a' });
      expect(err.text).toBe(
        `claim refused: task ${task.id} has 1 unfinished dependency: ${dep.id} "migrate the db" (todo); it is claimable once they are done (list_tasks ready=true shows claimable work)`,
      );
      expect(err.meta).toEqual({ denied: { reason: 'dependencies_unmet' } });
    }
    // claim_next_ready takes the dependency instead, and the task once that is done.
    const next = await callOk<{ task: Task }>(client, 'claim_next_ready', { assigneeAgentId: 'b' });
    expect(next.task.id).toBe(dep.id);
    expect(await callOk(client, 'claim_next_ready', { assigneeAgentId: 'c' })).toMatchObject({
      task: null,
    });
    await callOk(client, 'update_task_status', { taskId: dep.id, status: 'done' });
    expect(
      await callOk<Task>(client, 'assign_task', { taskId: task.id, assigneeAgentId: 'a' }),
    ).toMatchObject({ status: 'in_progress', assigneeAgentId: 'a' });
  });

  it('lets exactly one of several racing clients win', async () => {
    const session = await sessions.open();
    const task = await callOk<Task>(session.client, 'create_task', { title: 't' });
    const clients = [session.client, await session.connect(), await session.connect()];
    const results = await Promise.all(
      clients.map((c, i) =>
        c.callTool({
          name: 'claim_task',
          arguments: { taskId: task.id, assigneeAgentId: `a${i}` },
        }),
      ),
    );
    expect(results.filter((r) => r.isError !== true)).toHaveLength(1);
    expect(results.filter((r) => r.isError === true)).toHaveLength(2);
  });

  it('refuses non-todo work as a conflict and unknown ids as not found', async () => {
    const { client } = await sessions.open();
    for (const status of ['backlog', 'blocked', 'in_review', 'done', 'cancelled']) {
      const task = await callOk<Task>(client, 'create_task', { title: status, status });
      const err = await callErr(client, 'claim_task', { taskId: task.id, assigneeAgentId: 'a' });
      expect(err.text).toMatch(
        new RegExp(`^conflict: task ${task.id} is not claimable \\(status ${status}\\)`),
      );
    }
    const missing = await callErr(client, 'assign_task', { taskId: 'ghost', assigneeAgentId: 'a' });
    expect(missing.text).toBe('not found: ghost');
  });
});

describe('claim_next_ready', () => {
  it('claims by priority (higher first), then oldest, then answers null with a reason', async () => {
    const clock = fakeClock();
    const { client } = await sessions.open({ clock: clock.now });
    const create = async (title: string, priority: number) => {
      await callOk(client, 'create_task', { title, priority });
      clock.advance(1);
    };
    await create('p1-old', 1);
    await create('p5', 5);
    await create('p1-new', 1);
    await create('p-2', -2);
    const picked: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await callOk<{ task: Task }>(client, 'claim_next_ready', {
        assigneeAgentId: 'a',
      });
      expect(res.task).toMatchObject({ status: 'in_progress', assigneeAgentId: 'a' });
      picked.push(res.task.title);
    }
    expect(picked).toEqual(['p5', 'p1-old', 'p1-new', 'p-2']);
    const none = await callOk(client, 'claim_next_ready', { assigneeAgentId: 'a' });
    expect(none).toEqual({ task: null, reason: 'no ready task' });
  });

  it('picks the oldest of tasks created in the same millisecond', async () => {
    const clock = fakeClock();
    const { client } = await sessions.open({ clock: clock.now });
    const titles = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh'];
    for (const title of titles) await callOk(client, 'create_task', { title });
    const picked: string[] = [];
    for (const _ of titles) {
      const res = await callOk<{ task: Task }>(client, 'claim_next_ready', {
        assigneeAgentId: 'a',
      });
      picked.push(res.task.title);
    }
    expect(picked).toEqual(titles);
  });

  it('respects teamId and dependencies', async () => {
    const { client } = await sessions.open();
    const dep = await callOk<Task>(client, 'create_task', { title: 'dep', teamId: 't1' });
    const waits = await callOk<Task>(client, 'create_task', {
      title: 'waits',
      teamId: 't1',
      priority: 100,
    });
    await callOk(client, 'link_task', { taskId: waits.id, dependsOnTaskId: dep.id });
    await callOk(client, 'create_task', { title: 'other', teamId: 't2', priority: 50 });
    const first = await callOk<{ task: Task }>(client, 'claim_next_ready', {
      assigneeAgentId: 'a',
      teamId: 't1',
    });
    expect(first.task.title).toBe('dep');
    const none = await callOk(client, 'claim_next_ready', { assigneeAgentId: 'a', teamId: 't1' });
    expect(none).toEqual({ task: null, reason: 'no ready task' });
    await callOk(client, 'update_task_status', { taskId: dep.id, status: 'done' });
    const next = await callOk<{ task: Task }>(client, 'claim_next_ready', {
      assigneeAgentId: 'b',
      teamId: 't1',
      assigneeRuntime: 'rt',
    });
    expect(next.task).toMatchObject({
      title: 'waits',
      assigneeAgentId: 'b',
      assigneeRuntime: 'rt',
    });
    const anyTeam = await callOk<{ task: Task }>(client, 'claim_next_ready', {
      assigneeAgentId: 'c',
    });
    expect(anyTeam.task.title).toBe('other');
  });
});

describe('leases', () => {
  async function claimedTask() {
    const clock = fakeClock();
    const session = await sessions.open({ clock: clock.now, leaseMs: LEASE_MS });
    const task = await callOk<Task>(session.client, 'create_task', { title: 't' });
    await callOk(session.client, 'claim_task', { taskId: task.id, assigneeAgentId: 'a' });
    return { ...session, clock, task };
  }

  it('returns expired work to todo on list_tasks, with a system comment', async () => {
    const { client, clock, task } = await claimedTask();
    clock.advance(LEASE_MS - 1);
    const before = await callOk<{ tasks: Task[] }>(client, 'list_tasks', {});
    expect(before.tasks[0]).toMatchObject({ status: 'in_progress', assigneeAgentId: 'a' });
    clock.advance(1);
    const after = await callOk<{ tasks: Task[] }>(client, 'list_tasks', { ready: true });
    expect(after.tasks.map((t) => t.id)).toEqual([task.id]);
    expect(after.tasks[0]).toMatchObject({
      status: 'todo',
      assigneeAgentId: null,
      leaseExpiresAt: null,
    });
    const { comments } = await callOk<TaskDetail>(client, 'get_task', { taskId: task.id });
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ authorType: 'system', authorAgentId: null });
    expect(comments[0]?.body).toMatch(/^lease expired: /);
  });

  it('frees expired work for claim_task and claim_next_ready', async () => {
    const one = await claimedTask();
    one.clock.advance(LEASE_MS);
    const stolen = await callOk<Task>(one.client, 'claim_task', {
      taskId: one.task.id,
      assigneeAgentId: 'b',
    });
    expect(stolen.assigneeAgentId).toBe('b');

    const two = await claimedTask();
    two.clock.advance(LEASE_MS * 3);
    const next = await callOk<{ task: Task }>(two.client, 'claim_next_ready', {
      assigneeAgentId: 'c',
    });
    expect(next.task).toMatchObject({ id: two.task.id, assigneeAgentId: 'c' });
    const { comments } = await callOk<TaskDetail>(two.client, 'get_task', { taskId: two.task.id });
    expect(comments.map((c) => c.body)).toEqual([
      'lease expired: claim by a returned the task to todo',
    ]);
  });

  it('renew_claim extends the lease from now for the holder', async () => {
    const { client, clock, task } = await claimedTask();
    clock.advance(LEASE_MS - 10);
    const renewed = await callOk<Task>(client, 'renew_claim', {
      taskId: task.id,
      assigneeAgentId: 'a',
    });
    expect(renewed.leaseExpiresAt).toBe(new Date(clock.now() + LEASE_MS).toISOString());
    clock.advance(LEASE_MS - 1);
    const { tasks } = await callOk<{ tasks: Task[] }>(client, 'list_tasks', {});
    expect(tasks[0]).toMatchObject({ status: 'in_progress', assigneeAgentId: 'a' });
  });

  it('renew_claim by a non-holder or after expiry fails and changes nothing', async () => {
    const { client, clock, task } = await claimedTask();
    const err = await callErr(client, 'renew_claim', { taskId: task.id, assigneeAgentId: 'b' });
    expect(err.text).toBe(
      `renew failed: task ${task.id} is in_progress, held by a; claim it again instead`,
    );
    const { task: held } = await callOk<TaskDetail>(client, 'get_task', { taskId: task.id });
    expect(held.leaseExpiresAt).toBe(new Date(clock.now() + LEASE_MS).toISOString());
    clock.advance(LEASE_MS);
    const late = await callErr(client, 'renew_claim', { taskId: task.id, assigneeAgentId: 'a' });
    expect(late.text).toMatch(/^renew failed: .* is todo, unclaimed/);
    const missing = await callErr(client, 'renew_claim', { taskId: 'ghost', assigneeAgentId: 'a' });
    expect(missing.text).toBe('not found: ghost');
  });
});
