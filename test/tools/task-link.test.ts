// Which board task a gated call's approval names, through real SDK clients: an explicit
// `_meta["cairn/taskId"]` naming a live task wins; otherwise the bound agent's claimed task
// (claimed over the tasks server, newest claim first); otherwise none. Unbound callers get no
// claim fallback, and a `_meta` naming a missing or dropped task is ignored.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { createTasksServer, type TasksBinding } from '../../src/mcp/index.js';
import { callOk, linkedClient } from '../helpers.js';
import { pendingApproval, toolsHarness } from './helpers.js';

const harness = toolsHarness();
const taskClients: Client[] = [];
afterEach(async () => {
  for (const c of taskClients.splice(0)) await c.close();
  await harness.closeAll();
});

async function tasksClient(core: Core, binding: TasksBinding = {}): Promise<Client> {
  const client = await linkedClient(createTasksServer(core, binding));
  taskClients.push(client);
  return client;
}

/** Calls delete_path (optionally with a task `_meta`), approves it; returns the approval's task. */
async function linkOf(core: Core, tools: Client, meta?: Record<string, unknown>) {
  const call = tools.callTool({
    name: 'delete_path',
    arguments: { path: '/tmp/build' },
    ...(meta === undefined ? {} : { _meta: meta }),
  });
  const pending = await pendingApproval(core, 'delete_path');
  await core.broker.decide(pending.id, 'allow_once', 'test');
  const result = await call;
  expect(result.isError).toBeFalsy();
  return pending.taskId;
}

async function twoTasks(core: Core): Promise<[string, string]> {
  const a = await core.board.createTask({ title: 'a' });
  const b = await core.board.createTask({ title: 'b' });
  return [a.id, b.id];
}

const pause = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

describe('the task of a gated call', () => {
  it('is the task _meta["cairn/taskId"] names, bound or not, over any claim', async () => {
    const { core, connect } = await harness.open();
    const [a, b] = await twoTasks(core);
    const agent = await tasksClient(core, { scopeAgentId: 'a1' });
    await callOk(agent, 'claim_task', { taskId: b, assigneeAgentId: 'ignored' });
    const bound = await connect({ scopeAgentId: 'a1' });
    expect(await linkOf(core, bound, { 'cairn/taskId': a })).toBe(a);
    const unbound = await connect();
    expect(await linkOf(core, unbound, { 'cairn/taskId': b })).toBe(b);
    const shown = await core.broker.listApprovals({ taskId: a });
    expect(shown).toEqual([expect.objectContaining({ taskId: a, caller: 'a1' })]);
  });

  it("is the bound agent's claimed task, the newest claim or renewal first", async () => {
    const { core, connect } = await harness.open();
    const [a, b] = await twoTasks(core);
    const agent = await tasksClient(core, { scopeAgentId: 'a1' });
    const tools = await connect({ scopeAgentId: 'a1' });
    await callOk(agent, 'claim_task', { taskId: a, assigneeAgentId: 'a1' });
    expect(await linkOf(core, tools)).toBe(a);
    await pause();
    await callOk(agent, 'claim_task', { taskId: b, assigneeAgentId: 'a1' });
    expect(await linkOf(core, tools)).toBe(b);
    await pause();
    await callOk(agent, 'renew_claim', { taskId: a, assigneeAgentId: 'a1' });
    expect(await linkOf(core, tools)).toBe(a);
    // An unbound tasks session that claims with the agent's id counts too: the assignee matches.
    const c = (await core.board.createTask({ title: 'c' })).id;
    await pause();
    await callOk(await tasksClient(core), 'claim_task', { taskId: c, assigneeAgentId: 'a1' });
    expect(await linkOf(core, tools)).toBe(c);
  });

  it('is none without a claim, for another agent, or for an unbound caller', async () => {
    const { core, connect } = await harness.open();
    const [a, b] = await twoTasks(core);
    const tools = await connect({ scopeAgentId: 'a1' });
    expect(await linkOf(core, tools)).toBeNull();
    await callOk(await tasksClient(core, { scopeAgentId: 'a2' }), 'claim_task', {
      taskId: a,
      assigneeAgentId: 'a2',
    });
    expect(await linkOf(core, tools)).toBeNull();
    // The unbound caller is `client:cairn-test`, shared by every session of that client.
    await callOk(await tasksClient(core), 'claim_task', {
      taskId: b,
      assigneeAgentId: 'client:cairn-test',
    });
    expect(await linkOf(core, await connect())).toBeNull();
    expect(await core.broker.listApprovals({ taskId: b })).toEqual([]);
  });

  it('ignores a _meta naming a missing or dropped task, or not a string', async () => {
    const { core, connect } = await harness.open();
    const [a, b] = await twoTasks(core);
    await core.board.dropTask(b);
    const unbound = await connect();
    expect(await linkOf(core, unbound, { 'cairn/taskId': 'no-such-task' })).toBeNull();
    expect(await linkOf(core, unbound, { 'cairn/taskId': b })).toBeNull();
    const agent = await tasksClient(core, { scopeAgentId: 'a1' });
    await callOk(agent, 'claim_task', { taskId: a, assigneeAgentId: 'a1' });
    const bound = await connect({ scopeAgentId: 'a1' });
    expect(await linkOf(core, bound, { 'cairn/taskId': 'no-such-task' })).toBe(a);
    expect(await linkOf(core, bound, { 'cairn/taskId': b })).toBe(a);
    expect(await linkOf(core, bound, { 'cairn/taskId': 42 })).toBe(a);
  });

  it('links only calls that wait: not a safe call, not a granted one', async () => {
    const { core, connect } = await harness.open();
    const [a] = await twoTasks(core);
    const tools = await connect({ scopeAgentId: 'a1' });
    await callOk(tools, 'echo', { message: 'hi' });
    const call = tools.callTool({
      name: 'delete_path',
      arguments: { path: '/x' },
      _meta: { 'cairn/taskId': a },
    });
    const pending = await pendingApproval(core);
    await core.broker.decide(pending.id, 'allow_always', 'test');
    await call;
    await callOk(tools, 'delete_path', { path: '/y' });
    const all = await core.broker.listApprovals({});
    expect(all.map((x) => [x.tool, x.taskId])).toEqual([['delete_path', a]]);
  });
});
