// Every tasks tool over every transport: the same happy path, spec'd error text and hostile
// input through a real SDK client linked in memory, over stdio (the real bin) and over HTTP.
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Task } from '../../src/board/index.js';
import { createTasksServer } from '../../src/mcp/index.js';
import { callErr, callInvalid, callOk, linkedClient, ROOT, tempCore, tempDir } from '../helpers.js';
import { httpClient, startService, TOKEN } from '../http/helpers.js';

interface Connected {
  client: Client;
  close(): Promise<void>;
}

const TRANSPORTS: Record<string, () => Promise<Connected>> = {
  'in-memory': async () => {
    const t = await tempCore();
    const client = await linkedClient(createTasksServer(t.core));
    return { client, close: async () => (await client.close(), await t.close()) };
  },
  stdio: async () => {
    const dir = tempDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'bin/cairn-mcp-tasks.js'), '--db', join(dir.path, 'cairn.db')],
      env: {
        ...(process.env as Record<string, string>),
        CAIRN_HOME: dir.path,
        CAIRN_EMBEDDINGS: 'none',
      },
      stderr: 'ignore',
    });
    const client = new SdkClient({ name: 'cairn-transport-test', version: '0.0.0' });
    await client.connect(transport);
    return { client, close: async () => (await client.close(), dir.cleanup()) };
  },
  http: async () => {
    const running = await startService();
    const { client, close } = await httpClient(running.mcpUrl, TOKEN);
    return { client, close: async () => (await close(), await running.close()) };
  },
};

describe.each(Object.keys(TRANSPORTS))('tasks tools over %s', (name) => {
  let conn: Connected;
  let client: Client;
  beforeAll(async () => {
    conn = await (TRANSPORTS[name] as () => Promise<Connected>)();
    client = conn.client;
  });
  afterAll(async () => conn.close());

  const create = (args: Record<string, unknown> = {}) =>
    callOk<Task>(client, 'create_task', { title: 't', ...args });
  const missing = 'no-such-task';

  it('lists 14 tools as cairn-tasks', async () => {
    expect(client.getServerVersion()?.name).toBe('cairn-tasks');
    expect((await client.listTools()).tools).toHaveLength(14);
  });

  it('create_task, create_subtask: happy path, parent not found, hostile input', async () => {
    const root = await create({ teamId: 'tt', priority: 3 });
    expect(root).toMatchObject({ status: 'todo', teamId: 'tt', priority: 3, depth: 0 });
    const child = await callOk<Task>(client, 'create_subtask', {
      parentTaskId: root.id,
      title: 'c',
    });
    expect(child).toMatchObject({ parentTaskId: root.id, teamId: 'tt', depth: 1 });
    const err = await callErr(client, 'create_subtask', { parentTaskId: missing, title: 'c' });
    expect(err.text).toBe(`parent not found: ${missing}`);
    expect(err.meta).toEqual({ denied: { reason: 'parent_not_found' } });
    expect(await callInvalid(client, 'create_task', { title: 't', parentTaskId: '' })).toMatch(
      /invalid args.*parentTaskId/,
    );
    expect(
      await callInvalid(client, 'create_subtask', {
        parentTaskId: root.id,
        title: 'x'.repeat(1001),
      }),
    ).toMatch(/title/);
  });

  it('list_tasks and get_task: happy path, not found, hostile input', async () => {
    const task = await create({ teamId: 'lt' });
    await callOk(client, 'add_comment', { taskId: task.id, body: 'hello' });
    const listed = await callOk<{ tasks: Task[] }>(client, 'list_tasks', {
      teamId: 'lt',
      ready: true,
    });
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id]);
    const detail = await callOk<{ task: Task; comments: { body: string }[]; ancestors: Task[] }>(
      client,
      'get_task',
      { taskId: task.id },
    );
    expect(detail.comments.map((c) => c.body)).toEqual(['hello']);
    expect(detail.ancestors).toEqual([]);
    expect((await callErr(client, 'get_task', { taskId: missing })).text).toBe(
      `not found: ${missing}`,
    );
    expect(await callInvalid(client, 'list_tasks', { ready: 'yes' })).toMatch(/ready/);
    expect(await callInvalid(client, 'get_task', { taskId: 42 })).toMatch(/taskId/);
  });

  it('claim_task, assign_task, renew_claim, release_task: happy path, conflict, hostile input', async () => {
    const task = await create();
    const claimed = await callOk<Task>(client, 'claim_task', {
      taskId: task.id,
      assigneeAgentId: 'a',
    });
    expect(claimed).toMatchObject({ status: 'in_progress', assigneeAgentId: 'a' });
    expect(claimed.leaseExpiresAt).not.toBeNull();
    expect(
      (await callErr(client, 'assign_task', { taskId: task.id, assigneeAgentId: 'b' })).text,
    ).toMatch(/^conflict/);
    expect(
      (await callErr(client, 'claim_task', { taskId: task.id, assigneeAgentId: 'b' })).text,
    ).toMatch(/^conflict/);
    const renewed = await callOk<Task>(client, 'renew_claim', {
      taskId: task.id,
      assigneeAgentId: 'a',
    });
    expect(renewed.assigneeAgentId).toBe('a');
    expect(
      (await callErr(client, 'renew_claim', { taskId: task.id, assigneeAgentId: 'b' })).text,
    ).toMatch(/^renew failed: /);
    expect(await callOk<Task>(client, 'release_task', { taskId: task.id })).toMatchObject({
      status: 'todo',
      assigneeAgentId: null,
    });
    expect((await callErr(client, 'release_task', { taskId: task.id })).text).toMatch(
      /^release failed: /,
    );
    const other = await create();
    expect(
      await callOk<Task>(client, 'assign_task', { taskId: other.id, assigneeAgentId: 'c' }),
    ).toMatchObject({ assigneeAgentId: 'c' });
    expect(await callInvalid(client, 'claim_task', { taskId: task.id })).toMatch(/assigneeAgentId/);
    expect(
      await callInvalid(client, 'renew_claim', { taskId: task.id, assigneeAgentId: '' }),
    ).toMatch(/assigneeAgentId/);
  });

  it('claim_next_ready: picks the highest-priority ready task, then says none is ready', async () => {
    await create({ teamId: 'nr', priority: 1 });
    const top = await create({ teamId: 'nr', priority: 9 });
    const next = await callOk<{ task: Task }>(client, 'claim_next_ready', {
      assigneeAgentId: 'n',
      teamId: 'nr',
    });
    expect(next.task.id).toBe(top.id);
    await callOk(client, 'claim_next_ready', { assigneeAgentId: 'n', teamId: 'nr' });
    expect(
      await callOk(client, 'claim_next_ready', { assigneeAgentId: 'n', teamId: 'nr' }),
    ).toEqual({ task: null, reason: 'no ready task' });
    expect(await callInvalid(client, 'claim_next_ready', {})).toMatch(/assigneeAgentId/);
  });

  it('update_task_status, block_task, unblock_task: happy path, illegal transitions, hostile input', async () => {
    const task = await create();
    expect((await callOk<Task>(client, 'block_task', { taskId: task.id })).status).toBe('blocked');
    expect((await callOk<Task>(client, 'unblock_task', { taskId: task.id })).status).toBe('todo');
    expect(
      (await callOk<Task>(client, 'update_task_status', { taskId: task.id, status: 'cancelled' }))
        .status,
    ).toBe('cancelled');
    expect(
      (await callErr(client, 'update_task_status', { taskId: task.id, status: 'todo' })).text,
    ).toMatch(/^status change failed: /);
    expect((await callErr(client, 'block_task', { taskId: task.id })).text).toMatch(
      /^block failed: /,
    );
    expect((await callErr(client, 'unblock_task', { taskId: task.id })).text).toMatch(
      /^unblock failed: /,
    );
    expect(
      await callInvalid(client, 'update_task_status', { taskId: task.id, status: 'finished' }),
    ).toMatch(/status/);
  });

  it('add_comment and link_task: happy path, cycle refusal, hostile input', async () => {
    const a = await create();
    const b = await create();
    const comment = await callOk<{ authorType: string }>(client, 'add_comment', {
      taskId: a.id,
      body: 'note',
    });
    expect(comment.authorType).toBe('agent');
    expect((await callErr(client, 'add_comment', { taskId: missing, body: 'x' })).text).toBe(
      `not found: ${missing}`,
    );
    expect(
      await callOk(client, 'link_task', { taskId: a.id, dependsOnTaskId: b.id }),
    ).toMatchObject({ linked: true, created: true });
    expect(
      await callOk(client, 'link_task', { taskId: a.id, dependsOnTaskId: b.id }),
    ).toMatchObject({ created: false });
    expect((await callErr(client, 'link_task', { taskId: b.id, dependsOnTaskId: a.id })).text).toBe(
      `linking ${b.id} to ${a.id} would create a dependency cycle`,
    );
    expect(await callInvalid(client, 'add_comment', { taskId: a.id, body: '' })).toMatch(/body/);
    expect(await callInvalid(client, 'link_task', { taskId: a.id })).toMatch(/dependsOnTaskId/);
  });
});
