// Tasks server state machine and dependencies through a real SDK client: every (from, to)
// pair over update_task_status, block/unblock/release, link_task cycles and ready=true.
import { afterEach, describe, expect, it } from 'vitest';

import type { Task, TaskDetail } from '../../src/board/index.js';
import { callErr, callOk, tasksSessions } from '../helpers.js';

const sessions = tasksSessions();
afterEach(() => sessions.closeAll());

const STATUSES = [
  'backlog',
  'todo',
  'in_progress',
  'in_review',
  'blocked',
  'done',
  'cancelled',
] as const;
type Status = (typeof STATUSES)[number];

/** The legal moves as the board contract states them (same-status is a no-op on top). */
const LEGAL: Record<Status, Status[]> = {
  backlog: ['todo', 'blocked', 'cancelled'],
  todo: ['in_progress', 'blocked', 'backlog', 'cancelled'],
  in_progress: ['in_review', 'done', 'blocked', 'todo', 'cancelled'],
  in_review: ['done', 'in_progress', 'blocked', 'cancelled'],
  blocked: ['todo', 'in_progress', 'backlog', 'cancelled'],
  done: [],
  cancelled: [],
};

describe('update_task_status', () => {
  for (const from of STATUSES) {
    it(`moves out of ${from} exactly as the table says`, async () => {
      const { client } = await sessions.open();
      for (const to of STATUSES) {
        const task = await callOk<Task>(client, 'create_task', { title: 't', status: from });
        const args = { taskId: task.id, status: to };
        if (from === to || LEGAL[from].includes(to)) {
          const moved = await callOk<Task>(client, 'update_task_status', args);
          expect({ from, to, status: moved.status }).toEqual({ from, to, status: to });
        } else {
          const err = await callErr(client, 'update_task_status', args);
          expect(err.text).toMatch(
            new RegExp(`^status change failed: cannot move ${from} → ${to}`),
          );
          if (LEGAL[from].length === 0) expect(err.text).toContain(`${from} is terminal`);
          const { task: after } = await callOk<TaskDetail>(client, 'get_task', { taskId: task.id });
          expect(after).toEqual(task);
        }
      }
    });
  }

  it('clears the assignee when work goes back to todo', async () => {
    const { client } = await sessions.open();
    const task = await callOk<Task>(client, 'create_task', { title: 't' });
    await callOk(client, 'claim_task', { taskId: task.id, assigneeAgentId: 'a' });
    await callOk(client, 'block_task', { taskId: task.id });
    const back = await callOk<Task>(client, 'update_task_status', {
      taskId: task.id,
      status: 'todo',
    });
    expect(back).toMatchObject({ status: 'todo', assigneeAgentId: null, leaseExpiresAt: null });
    const reclaimed = await callOk<Task>(client, 'claim_task', {
      taskId: task.id,
      assigneeAgentId: 'b',
    });
    expect(reclaimed.assigneeAgentId).toBe('b');
  });

  it('answers not found for an unknown task', async () => {
    const { client } = await sessions.open();
    for (const tool of ['update_task_status', 'block_task', 'unblock_task', 'release_task']) {
      const args = { taskId: 'ghost', status: 'done' };
      expect((await callErr(client, tool, args)).text).toBe('not found: ghost');
    }
  });
});

describe('block_task, unblock_task, release_task', () => {
  it('blocks and unblocks, refusing terminal tasks with the spec prefixes', async () => {
    const { client } = await sessions.open();
    const task = await callOk<Task>(client, 'create_task', { title: 't' });
    expect((await callOk<Task>(client, 'block_task', { taskId: task.id })).status).toBe('blocked');
    expect((await callOk<Task>(client, 'unblock_task', { taskId: task.id })).status).toBe('todo');
    for (const status of ['done', 'cancelled']) {
      const end = await callOk<Task>(client, 'create_task', { title: status, status });
      const block = await callErr(client, 'block_task', { taskId: end.id });
      expect(block.text).toBe(
        `block failed: cannot move ${status} → blocked (${status} is terminal)`,
      );
      const unblock = await callErr(client, 'unblock_task', { taskId: end.id });
      expect(unblock.text).toMatch(/^unblock failed: task \S+ is (done|cancelled), not blocked$/);
    }
  });

  it('refuses to unblock work that cannot move to todo', async () => {
    const { client } = await sessions.open();
    const task = await callOk<Task>(client, 'create_task', { title: 't', status: 'in_review' });
    const err = await callErr(client, 'unblock_task', { taskId: task.id });
    expect(err.text).toBe(`unblock failed: task ${task.id} is in_review, not blocked`);
  });

  it('releases only in_progress work, back to todo and unassigned', async () => {
    const { client } = await sessions.open();
    const task = await callOk<Task>(client, 'create_task', { title: 't' });
    const err = await callErr(client, 'release_task', { taskId: task.id });
    expect(err.text).toBe(`release failed: task ${task.id} is todo, not in_progress`);
    await callOk(client, 'claim_task', { taskId: task.id, assigneeAgentId: 'a' });
    const released = await callOk<Task>(client, 'release_task', { taskId: task.id });
    expect(released).toMatchObject({ status: 'todo', assigneeAgentId: null, leaseExpiresAt: null });
    for (const status of ['backlog', 'in_review', 'blocked', 'done', 'cancelled']) {
      const other = await callOk<Task>(client, 'create_task', { title: status, status });
      const refusal = await callErr(client, 'release_task', { taskId: other.id });
      expect(refusal.text).toBe(`release failed: task ${other.id} is ${status}, not in_progress`);
    }
  });
});

describe('link_task and ready', () => {
  async function three() {
    const session = await sessions.open();
    const make = (title: string) => callOk<Task>(session.client, 'create_task', { title });
    return { ...session, a: await make('A'), b: await make('B'), c: await make('C') };
  }
  const finish = async (client: Parameters<typeof callOk>[0], id: string) => {
    await callOk(client, 'update_task_status', { taskId: id, status: 'in_progress' });
    await callOk(client, 'update_task_status', { taskId: id, status: 'done' });
  };

  it('links, reports the edge and treats a re-link as a no-op', async () => {
    const { client, a, b } = await three();
    const first = await callOk(client, 'link_task', { taskId: a.id, dependsOnTaskId: b.id });
    expect(first).toEqual({ linked: true, taskId: a.id, dependsOnTaskId: b.id, created: true });
    const again = await callOk(client, 'link_task', { taskId: a.id, dependsOnTaskId: b.id });
    expect(again).toEqual({ linked: true, taskId: a.id, dependsOnTaskId: b.id, created: false });
  });

  it('refuses self, direct and transitive cycles with the spec text', async () => {
    const { client, core, a, b, c } = await three();
    const cycleText = (x: Task, y: Task) =>
      `linking ${x.id} to ${y.id} would create a dependency cycle`;
    expect((await callErr(client, 'link_task', { taskId: a.id, dependsOnTaskId: a.id })).text).toBe(
      cycleText(a, a),
    );
    await callOk(client, 'link_task', { taskId: a.id, dependsOnTaskId: b.id });
    expect((await callErr(client, 'link_task', { taskId: b.id, dependsOnTaskId: a.id })).text).toBe(
      cycleText(b, a),
    );
    await callOk(client, 'link_task', { taskId: b.id, dependsOnTaskId: c.id });
    expect((await callErr(client, 'link_task', { taskId: c.id, dependsOnTaskId: a.id })).text).toBe(
      cycleText(c, a),
    );
    const edges = await core.store.all<{ task_id: string; depends_on_task_id: string }>(
      'SELECT task_id, depends_on_task_id FROM task_dependencies ORDER BY created_at, rowid',
    );
    expect(edges).toEqual([
      { task_id: a.id, depends_on_task_id: b.id },
      { task_id: b.id, depends_on_task_id: c.id },
    ]);
  });

  it('answers not found for either unknown end and links nothing', async () => {
    const { client, core, a } = await three();
    const one = await callErr(client, 'link_task', { taskId: a.id, dependsOnTaskId: 'ghost' });
    const two = await callErr(client, 'link_task', { taskId: 'ghost', dependsOnTaskId: a.id });
    expect([one.text, two.text]).toEqual(['not found: ghost', 'not found: ghost']);
    expect(await core.store.all('SELECT * FROM task_dependencies')).toEqual([]);
  });

  it('keeps a task unready until every dependency is done', async () => {
    const { client, a, b, c } = await three();
    await callOk(client, 'link_task', { taskId: a.id, dependsOnTaskId: b.id });
    await callOk(client, 'link_task', { taskId: a.id, dependsOnTaskId: c.id });
    const ready = async () =>
      (await callOk<{ tasks: Task[] }>(client, 'list_tasks', { ready: true })).tasks
        .map((t) => t.title)
        .sort();
    expect(await ready()).toEqual(['B', 'C']);
    await finish(client, b.id);
    expect(await ready()).toEqual(['C']);
    await callOk(client, 'update_task_status', { taskId: c.id, status: 'cancelled' });
    expect(await ready()).toEqual([]);
    const d = await callOk<Task>(client, 'create_task', { title: 'D' });
    await callOk(client, 'link_task', { taskId: d.id, dependsOnTaskId: b.id });
    expect(await ready()).toEqual(['D']);
    await callOk(client, 'create_task', { title: 'E', status: 'backlog' });
    await callOk(client, 'claim_task', { taskId: d.id, assigneeAgentId: 'x' });
    expect(await ready()).toEqual([]);
    const all = await callOk<{ tasks: Task[] }>(client, 'list_tasks', { ready: false });
    expect(all.tasks).toHaveLength(5);
  });
});
