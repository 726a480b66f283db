// Tasks server through a real SDK client: tools/list, serverInfo, and the read, create and
// comment tools with the shapes they return.
import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import type { Task, TaskComment, TaskDetail } from '../../src/board/index.js';
import { callErr, callOk, ROOT, tasksSessions } from '../helpers.js';

const sessions = tasksSessions();
afterEach(() => sessions.closeAll());

const ALL_TOOLS = [
  'list_tasks',
  'get_task',
  'create_task',
  'create_subtask',
  'claim_task',
  'assign_task',
  'release_task',
  'update_task_status',
  'block_task',
  'unblock_task',
  'add_comment',
  'link_task',
  'claim_next_ready',
  'renew_claim',
];

const REQUIRED: Record<string, string[]> = {
  list_tasks: [],
  get_task: ['taskId'],
  create_task: ['title'],
  create_subtask: ['parentTaskId', 'title'],
  claim_task: ['taskId', 'assigneeAgentId'],
  assign_task: ['taskId', 'assigneeAgentId'],
  release_task: ['taskId'],
  update_task_status: ['taskId', 'status'],
  block_task: ['taskId'],
  unblock_task: ['taskId'],
  add_comment: ['taskId', 'body'],
  link_task: ['taskId', 'dependsOnTaskId'],
  claim_next_ready: ['assigneeAgentId'],
  renew_claim: ['taskId', 'assigneeAgentId'],
};

const PROPERTIES: Record<string, string[]> = {
  list_tasks: ['teamId', 'status', 'ready'],
  create_task: [
    'title',
    'description',
    'status',
    'priority',
    'teamId',
    'parentTaskId',
    'assigneeRuntime',
  ],
  create_subtask: ['parentTaskId', 'title', 'description'],
  claim_task: ['taskId', 'assigneeAgentId', 'assigneeRuntime'],
  add_comment: ['taskId', 'body', 'authorAgentId', 'authorType'],
};

describe('tools/list and serverInfo', () => {
  it('names the server and reports the package version', async () => {
    const { client } = await sessions.open();
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string };
    expect(client.getServerVersion()).toMatchObject({ name: 'cairn-tasks', version: pkg.version });
  });

  it('lists all 14 tools with object schemas and the spec required fields', async () => {
    const { client } = await sessions.open();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(0);
      expect(tool.inputSchema.type).toBe('object');
      expect({ tool: tool.name, required: [...(tool.inputSchema.required ?? [])].sort() }).toEqual({
        tool: tool.name,
        required: [...(REQUIRED[tool.name] ?? ['?'])].sort(),
      });
      const props = PROPERTIES[tool.name];
      if (props !== undefined) {
        expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual([...props].sort());
      }
    }
  });

  it('publishes the status and authorType enums', async () => {
    const { client } = await sessions.open();
    const { tools } = await client.listTools();
    const prop = (tool: string, field: string) =>
      (tools.find((t) => t.name === tool)?.inputSchema.properties ?? {})[field] as
        { enum?: string[]; type?: string } | undefined;
    expect(prop('update_task_status', 'status')?.enum).toEqual([
      'backlog',
      'todo',
      'in_progress',
      'in_review',
      'blocked',
      'done',
      'cancelled',
    ]);
    expect(prop('add_comment', 'authorType')?.enum).toEqual(['agent', 'user', 'system']);
    expect(prop('create_task', 'priority')?.type).toBe('integer');
    expect(prop('list_tasks', 'ready')?.type).toBe('boolean');
  });
});

describe('create_task and create_subtask', () => {
  it('creates a root task with defaults and every optional field', async () => {
    const { client } = await sessions.open();
    const plain = await callOk<Task>(client, 'create_task', { title: 'plain' });
    expect(plain).toMatchObject({
      title: 'plain',
      description: '',
      status: 'todo',
      priority: 0,
      teamId: null,
      parentTaskId: null,
      depth: 0,
      assigneeAgentId: null,
      assigneeRuntime: null,
      leaseExpiresAt: null,
    });
    expect(plain.id).toMatch(/\S/);
    expect(Date.parse(plain.createdAt)).not.toBeNaN();
    const full = await callOk<Task>(client, 'create_task', {
      title: 'full',
      description: 'desc',
      status: 'backlog',
      priority: 7,
      teamId: 't1',
      assigneeRuntime: 'claude',
    });
    expect(full).toMatchObject({
      description: 'desc',
      status: 'backlog',
      priority: 7,
      teamId: 't1',
      assigneeRuntime: 'claude',
    });
  });

  it('returns the task as structured content too', async () => {
    const { client } = await sessions.open();
    const result = await client.callTool({ name: 'create_task', arguments: { title: 'x' } });
    expect(result.structuredContent).toMatchObject({ title: 'x', status: 'todo' });
  });

  it('creates subtasks that inherit the team unless one is given', async () => {
    const { client } = await sessions.open();
    const root = await callOk<Task>(client, 'create_task', { title: 'root', teamId: 't1' });
    const sub = await callOk<Task>(client, 'create_subtask', {
      parentTaskId: root.id,
      title: 'sub',
      description: 'd',
    });
    expect(sub).toMatchObject({ parentTaskId: root.id, depth: 1, teamId: 't1', description: 'd' });
    const viaCreate = await callOk<Task>(client, 'create_task', {
      title: 'other',
      parentTaskId: sub.id,
      teamId: 't2',
    });
    expect(viaCreate).toMatchObject({ parentTaskId: sub.id, depth: 2, teamId: 't2' });
  });

  it('round-trips unicode (emoji ZWJ sequences too) and SQL-looking text unchanged', async () => {
    const { client } = await sessions.open();
    const samples = [
      "Robert'); DROP TABLE tasks;--",
      '1 OR 1=1; SELECT * FROM tasks WHERE id = ?',
      'emoji 🧗\u200D♀️ 中文 العربية  two spaces', // hidden characters: invisible-text.test.ts
      '%_\\ \'"` $1 ${x} \n\t line two',
    ];
    for (const title of samples) {
      const task = await callOk<Task>(client, 'create_task', { title, description: title });
      const { task: got } = await callOk<TaskDetail>(client, 'get_task', { taskId: task.id });
      expect([got.title, got.description]).toEqual([title, title]);
      await callOk(client, 'add_comment', { taskId: task.id, body: title });
    }
    const { tasks } = await callOk<{ tasks: Task[] }>(client, 'list_tasks', {});
    expect(tasks.map((t) => t.title).sort()).toEqual([...samples].sort());
  });
});

describe('list_tasks and get_task', () => {
  it('lists with team and status filters', async () => {
    const { client } = await sessions.open();
    await callOk(client, 'create_task', { title: 'a', teamId: 't1' });
    await callOk(client, 'create_task', { title: 'b', teamId: 't1', status: 'backlog' });
    await callOk(client, 'create_task', { title: 'c', teamId: 't2' });
    const titles = async (args: Record<string, unknown>) =>
      (await callOk<{ tasks: Task[] }>(client, 'list_tasks', args)).tasks
        .map((t) => t.title)
        .sort();
    expect(await titles({})).toEqual(['a', 'b', 'c']);
    expect(await titles({ teamId: 't1' })).toEqual(['a', 'b']);
    expect(await titles({ status: 'backlog' })).toEqual(['b']);
    expect(await titles({ teamId: 't2', status: 'backlog' })).toEqual([]);
    expect(await titles({ teamId: 'nobody' })).toEqual([]);
  });

  it('returns {task, comments, ancestors} with ancestors root first', async () => {
    const { client } = await sessions.open();
    const root = await callOk<Task>(client, 'create_task', { title: 'root' });
    const mid = await callOk<Task>(client, 'create_subtask', {
      parentTaskId: root.id,
      title: 'mid',
    });
    const leaf = await callOk<Task>(client, 'create_subtask', {
      parentTaskId: mid.id,
      title: 'leaf',
    });
    const detail = await callOk<TaskDetail>(client, 'get_task', { taskId: leaf.id });
    expect(Object.keys(detail).sort()).toEqual(['ancestors', 'comments', 'task']);
    expect(detail.task).toEqual(leaf);
    expect(detail.comments).toEqual([]);
    expect(detail.ancestors.map((t) => t.id)).toEqual([root.id, mid.id]);
  });

  it('answers not found for unknown and dropped tasks', async () => {
    const { client, core } = await sessions.open();
    const task = await callOk<Task>(client, 'create_task', { title: 'x' });
    await core.board.dropTask(task.id);
    for (const id of ['no-such-task', task.id]) {
      const err = await callErr(client, 'get_task', { taskId: id });
      expect(err.text).toBe(`not found: ${id}`);
    }
    expect((await callOk<{ tasks: Task[] }>(client, 'list_tasks', {})).tasks).toEqual([]);
  });
});

describe('add_comment', () => {
  it('defaults authorType to agent and keeps the order', async () => {
    const { client } = await sessions.open();
    const task = await callOk<Task>(client, 'create_task', { title: 'x' });
    const first = await callOk<TaskComment>(client, 'add_comment', {
      taskId: task.id,
      body: 'one',
    });
    expect(first).toMatchObject({ taskId: task.id, body: 'one', authorType: 'agent' });
    expect(first.authorAgentId).toBeNull();
    await callOk(client, 'add_comment', {
      taskId: task.id,
      body: 'two',
      authorAgentId: 'lead',
      authorType: 'user',
    });
    await callOk(client, 'add_comment', { taskId: task.id, body: 'three', authorType: 'system' });
    const { comments } = await callOk<TaskDetail>(client, 'get_task', { taskId: task.id });
    expect(comments.map((c) => [c.body, c.authorType, c.authorAgentId])).toEqual([
      ['one', 'agent', null],
      ['two', 'user', 'lead'],
      ['three', 'system', null],
    ]);
  });

  it('answers not found for an unknown task and writes nothing', async () => {
    const { client, core } = await sessions.open();
    const err = await callErr(client, 'add_comment', { taskId: 'ghost', body: 'hi' });
    expect(err.text).toBe('not found: ghost');
    const row = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM task_comments');
    expect(row?.n).toBe(0);
  });
});
