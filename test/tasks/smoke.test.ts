import { afterEach, describe, expect, it } from 'vitest';

import { createTasksServer } from '../../src/mcp/index.js';
import { callErr, callOk, linkedClient, tempCore } from '../helpers.js';

describe('tasks smoke', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('creates, claims and conflicts', async () => {
    const t = await tempCore();
    close = t.close;
    const client = await linkedClient(createTasksServer(t.core));
    const tools = await client.listTools();
    expect(tools.tools.map((x) => x.name)).toContain('claim_task');
    const task = await callOk<{ id: string; status: string }>(client, 'create_task', {
      title: 'x',
    });
    expect(task.status).toBe('todo');
    const claimed = await callOk<{ assigneeAgentId: string }>(client, 'claim_task', {
      taskId: task.id,
      assigneeAgentId: 'a',
    });
    expect(claimed.assigneeAgentId).toBe('a');
    const err = await callErr(client, 'claim_task', { taskId: task.id, assigneeAgentId: 'b' });
    expect(err.text).toMatch(/^conflict/);
    const invalid = await callErr(client, 'create_task', { title: 'y', parentTaskId: '' });
    expect(invalid.text).toMatch(/^invalid args: parentTaskId: /);
    expect(invalid.meta).toEqual({ denied: { reason: 'invalid_args' } });
  });
});
