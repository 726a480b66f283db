// Tasks server connection bindings through a real SDK client: readOnly sessions, a bound team
// the model cannot widen, and a bound agent that cannot move work another agent holds.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { Task, TaskDetail } from '../../src/board/index.js';
import { callErr, callOk, tasksSessions } from '../helpers.js';

const sessions = tasksSessions();
afterEach(() => sessions.closeAll());

describe('readOnly binding', () => {
  it('lists only list_tasks and get_task and refuses every other tool', async () => {
    const session = await sessions.open();
    const task = await callOk<Task>(session.client, 'create_task', { title: 't' });
    const reader = await session.connect({ readOnly: true });
    const { tools } = await reader.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_task', 'list_tasks']);
    expect((await callOk<{ tasks: Task[] }>(reader, 'list_tasks', {})).tasks).toHaveLength(1);
    expect((await callOk<TaskDetail>(reader, 'get_task', { taskId: task.id })).task.id).toBe(
      task.id,
    );
    const writes: [string, Record<string, unknown>][] = [
      ['create_task', { title: 'nope' }],
      ['create_subtask', { parentTaskId: task.id, title: 'nope' }],
      ['claim_task', { taskId: task.id, assigneeAgentId: 'a' }],
      ['assign_task', { taskId: task.id, assigneeAgentId: 'a' }],
      ['release_task', { taskId: task.id }],
      ['update_task_status', { taskId: task.id, status: 'cancelled' }],
      ['block_task', { taskId: task.id }],
      ['unblock_task', { taskId: task.id }],
      ['add_comment', { taskId: task.id, body: 'nope' }],
      ['link_task', { taskId: task.id, dependsOnTaskId: task.id }],
      ['claim_next_ready', { assigneeAgentId: 'a' }],
      ['renew_claim', { taskId: task.id, assigneeAgentId: 'a' }],
    ];
    for (const [name, args] of writes) {
      const call = reader.callTool({ name, arguments: args });
      await expect(call, name).rejects.toBeInstanceOf(McpError);
      await expect(reader.callTool({ name, arguments: args }), name).rejects.toThrow(
        `unknown tool: ${name}`,
      );
    }
    const detail = await callOk<TaskDetail>(session.client, 'get_task', { taskId: task.id });
    expect(detail).toEqual({ task, comments: [], ancestors: [] });
    expect((await callOk<{ tasks: Task[] }>(session.client, 'list_tasks', {})).tasks).toHaveLength(
      1,
    );
  });
});

describe('scopeTeamId binding', () => {
  async function twoTeams() {
    const session = await sessions.open();
    const t1 = await callOk<Task>(session.client, 'create_task', { title: 'one', teamId: 't1' });
    const t2 = await callOk<Task>(session.client, 'create_task', {
      title: 'two',
      teamId: 't2',
      priority: 100,
    });
    await callOk(session.client, 'create_task', { title: 'none', priority: 100 });
    const scoped = await session.connect({ scopeTeamId: 't1' });
    return { ...session, scoped, t1, t2 };
  }

  it('forces list_tasks to the bound team whatever teamId the model passes', async () => {
    const { scoped, t1 } = await twoTeams();
    for (const args of [{}, { teamId: 't2' }, { teamId: 't1' }, { ready: true, teamId: 't2' }]) {
      const { tasks } = await callOk<{ tasks: Task[] }>(scoped, 'list_tasks', args);
      expect(tasks.map((t) => t.id)).toEqual([t1.id]);
    }
  });

  it("answers not found for another team's task on get_task", async () => {
    const { scoped, client, t1, t2 } = await twoTeams();
    expect((await callErr(scoped, 'get_task', { taskId: t2.id })).text).toBe(`not found: ${t2.id}`);
    expect((await callOk<TaskDetail>(scoped, 'get_task', { taskId: t1.id })).task.id).toBe(t1.id);
    expect((await callOk<TaskDetail>(client, 'get_task', { taskId: t2.id })).task.id).toBe(t2.id);
  });

  it('keeps claim_next_ready inside the bound team', async () => {
    const { scoped, t1 } = await twoTeams();
    const first = await callOk<{ task: Task }>(scoped, 'claim_next_ready', {
      assigneeAgentId: 'a',
      teamId: 't2',
    });
    expect(first.task.id).toBe(t1.id);
    const none = await callOk(scoped, 'claim_next_ready', { assigneeAgentId: 'a' });
    expect(none).toEqual({ task: null, reason: 'no ready task' });
  });
});

describe('scopeAgentId binding', () => {
  async function heldByB() {
    const session = await sessions.open();
    const task = await callOk<Task>(session.client, 'create_task', { title: 't' });
    await callOk(session.client, 'claim_task', { taskId: task.id, assigneeAgentId: 'b' });
    const asA = await session.connect({ scopeAgentId: 'a' });
    const asB = await session.connect({ scopeAgentId: 'b' });
    const { task: held } = await callOk<TaskDetail>(session.client, 'get_task', {
      taskId: task.id,
    });
    return { ...session, task: held, asA, asB };
  }

  it("refuses release, status change and block of b's task for agent a", async () => {
    const { asA, client, task } = await heldByB();
    const refusals: [string, Record<string, unknown>, string][] = [
      ['release_task', { taskId: task.id }, 'release failed: '],
      ['update_task_status', { taskId: task.id, status: 'done' }, 'status change failed: '],
      ['update_task_status', { taskId: task.id, status: 'todo' }, 'status change failed: '],
      ['block_task', { taskId: task.id }, 'block failed: '],
    ];
    for (const [tool, args, prefix] of refusals) {
      const err = await callErr(asA, tool, args);
      expect(err.text).toBe(`${prefix}task ${task.id} is held by b, not a`);
      expect(err.text).toContain('held by b');
    }
    const { task: after } = await callOk<TaskDetail>(client, 'get_task', { taskId: task.id });
    expect(after).toEqual(task);
  });

  it('refuses agent a on in_review work held by b too', async () => {
    const { asA, asB, task } = await heldByB();
    await callOk(asB, 'update_task_status', { taskId: task.id, status: 'in_review' });
    const err = await callErr(asA, 'update_task_status', { taskId: task.id, status: 'done' });
    expect(err.text).toContain('held by b');
  });

  it('lets the holder release, block and finish its own work', async () => {
    const { asB, task } = await heldByB();
    expect((await callOk<Task>(asB, 'block_task', { taskId: task.id })).status).toBe('blocked');
    await callOk(asB, 'update_task_status', { taskId: task.id, status: 'in_progress' });
    const released = await callOk<Task>(asB, 'release_task', { taskId: task.id });
    expect(released).toMatchObject({ status: 'todo', assigneeAgentId: null });
  });

  it("refuses agent a on b's blocked work: blocked tasks keep their owner", async () => {
    const { asA, asB, task } = await heldByB();
    await callOk(asB, 'block_task', { taskId: task.id });
    for (const [tool, args] of [
      ['unblock_task', { taskId: task.id }],
      ['update_task_status', { taskId: task.id, status: 'in_progress' }],
    ] as const) {
      expect((await callErr(asA, tool, args)).text).toContain('held by b, not a');
    }
  });

  it('claims, renews and comments as the bound agent whatever the arguments say', async () => {
    const { client, asA, asB, task } = await heldByB();
    const other = await callOk<Task>(client, 'create_task', { title: 'u' });
    const claimed = await callOk<Task>(asA, 'claim_task', {
      taskId: other.id,
      assigneeAgentId: 'b',
    });
    expect(claimed.assigneeAgentId).toBe('a');
    // a cannot renew b's claim by naming b.
    const renew = await callErr(asA, 'renew_claim', { taskId: task.id, assigneeAgentId: 'b' });
    expect(renew.text).toMatch(/^renew failed: task \S+ is in_progress, held by b/);
    expect(
      (await callOk<Task>(asB, 'renew_claim', { taskId: task.id, assigneeAgentId: 'x' }))
        .assigneeAgentId,
    ).toBe('b');
    await callOk(client, 'create_task', { title: 'ready' });
    const next = await callOk<{ task: Task }>(asA, 'claim_next_ready', { assigneeAgentId: 'b' });
    expect(next.task.assigneeAgentId).toBe('a');
    const comment = await callOk<{ authorAgentId: string }>(asA, 'add_comment', {
      taskId: task.id,
      body: 'hi',
      authorAgentId: 'b',
    });
    expect(comment.authorAgentId).toBe('a');
  });
});

describe('team-bound creates', () => {
  it("files a bound session's new root tasks on its team, so it can see them", async () => {
    const session = await sessions.open();
    const bound = await session.connect({ scopeTeamId: 't1' });
    const root = await callOk<Task>(bound, 'create_task', { title: 'mine' });
    expect(root.teamId).toBe('t1');
    const listed = await callOk<{ tasks: Task[] }>(bound, 'list_tasks', {});
    expect(listed.tasks.map((t) => t.id)).toEqual([root.id]);
    const explicit = await callOk<Task>(bound, 'create_task', { title: 'x', teamId: 't2' });
    expect(explicit.teamId).toBe('t2');
  });
});
