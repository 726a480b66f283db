// The inbox piggyback over Streamable HTTP: the agent binding of a signed attach URL carries
// it, and what the dashboard's human writes (a REST comment) reaches the agent's next call.
import { afterEach, describe, expect, it } from 'vitest';

import type { InboxDelivery, Task } from '../../src/board/index.js';
import { INBOX_META } from '../../src/mcp/tasks-server.js';
import { callOk } from '../helpers.js';
import { httpSessions, mintAttach, TOKEN } from './helpers.js';

const sessions = httpSessions();
afterEach(() => sessions.closeAll());

describe('inbox piggyback over HTTP', () => {
  it("delivers a REST comment on the agent's task through its signed attach URL", async () => {
    const svc = await sessions.start();
    const minted = await mintAttach(svc, 'tasks', 'scopeAgentId=builder');
    const agent = await sessions.connect(minted.url, minted.token);
    const task = await callOk<Task>(agent.client, 'create_task', { title: 'ship it' });
    await callOk(agent.client, 'claim_task', { taskId: task.id, assigneeAgentId: 'x' });

    const res = await fetch(`${svc.base}/api/board/tasks/${task.id}/comments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'Please also cover the REST path' }),
    });
    expect(res.status).toBeLessThan(300);

    const result = await agent.client.callTool({ name: 'list_tasks', arguments: {} });
    const inbox = result._meta?.[INBOX_META] as InboxDelivery | undefined;
    expect(inbox?.items).toMatchObject([
      { kind: 'comment', source: task.id, from: 'user', text: 'Please also cover the REST path' },
    ]);
    // The master-token session is unbound: no piggyback, and the entry was handed over once.
    const master = await sessions.connect(svc.mcpUrl, TOKEN);
    const plain = await master.client.callTool({ name: 'list_tasks', arguments: {} });
    expect(plain._meta?.[INBOX_META]).toBeUndefined();
    const again = await agent.client.callTool({ name: 'list_tasks', arguments: {} });
    expect(again._meta?.[INBOX_META]).toBeUndefined();
  });
});
