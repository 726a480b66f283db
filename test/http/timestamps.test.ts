// One timestamp format on REST and SSE: with approvals, audit rows, notes, room posts, agents
// and channels in the store (whose domains keep epoch ms), every time field of every answer is
// an ISO 8601 string, never an epoch-ms number.
import { afterEach, describe, expect, it } from 'vitest';

import { callOk } from '../helpers.js';
import { nonIsoTimes, timeFieldCount } from '../timestamps.js';
import { httpSessions, TOKEN } from './helpers.js';

const sessions = httpSessions();
afterEach(() => sessions.closeAll());

const bearer = { authorization: `Bearer ${TOKEN}` };

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The first `data:` of an SSE stream, parsed. */
async function firstEvent(url: string): Promise<unknown> {
  const ctrl = new AbortController();
  const res = await fetch(url, {
    headers: bearer,
    signal: AbortSignal.any([ctrl.signal, AbortSignal.timeout(10_000)]),
  });
  const reader = res.body?.getReader();
  let text = '';
  try {
    for (let i = 0; i < 100 && !/\ndata: .*\n/.test(text); i++) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
  } finally {
    ctrl.abort();
  }
  const data = /\ndata: (.*)\n/.exec(text)?.[1];
  if (data === undefined) throw new Error(`no event in ${text}`);
  return JSON.parse(data) as unknown;
}

describe('timestamps over REST', () => {
  it('every time field of the REST answers and SSE events is ISO 8601', async () => {
    const svc = await sessions.start();
    const task = await svc.core.board.createTask({ title: 'a' });
    const tools = await sessions.connect(`${svc.base}/api/mcp/tools`, TOKEN);
    await callOk(tools.client, 'note', { note: 'remember the milk' });
    const gated = tools.client.callTool({
      name: 'delete_path',
      arguments: { path: '/tmp/x' },
      _meta: { 'cairn/taskId': task.id },
    });
    const get = async (path: string): Promise<unknown> => {
      const res = await fetch(`${svc.base}${path}`, { headers: bearer });
      expect(res.status, path).toBe(200);
      return res.json();
    };
    await until('a pending approval', async () => {
      const { approvals } = (await get('/api/approvals')) as { approvals: unknown[] };
      return approvals.length === 1;
    });
    await svc.core.rooms.post({ roomId: 'team:t1', authorAgentId: 'w1', text: 'hello' });
    await svc.core.backplane.register({ kind: 'operator' }, { nick: 'w1', channels: ['#general'] });
    await svc.core.backplane.send(
      { kind: 'operator' },
      { channel: '#general', type: 'agent.hello' },
    );
    await svc.core.backplane.channels.create({
      name: '#tmp',
      ttlMs: 60_000,
      createdBy: 'operator',
    });
    await svc.core.backplane.agents.revoke('w1');

    const { approvals } = (await get('/api/approvals')) as { approvals: Array<{ id: string }> };
    const id = approvals[0]?.id ?? '';
    const decided = await fetch(`${svc.base}/api/approvals/${id}`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({ decision: 'deny' }),
    });
    await gated;
    const answers: Record<string, unknown> = {
      decided: await decided.json(),
      approvals: await get('/api/approvals?status=all'),
      approval: await get(`/api/approvals/${id}`),
      audit: await get('/api/audit'),
      notes: await get('/api/tool-notes'),
      board: await get('/api/board/tasks'),
      task: await get(`/api/board/tasks/${task.id}`),
      posts: await get('/api/rooms/team:t1/posts'),
      channelPosts: await get('/api/rooms/%23general/posts'),
      agents: await get('/api/agents'),
      v1agents: await get('/v1/agents'),
      v1channels: await get('/v1/channels?all=1'),
      v1messages: await get('/v1/channels/general/messages'),
      roomStream: await firstEvent(`${svc.base}/api/rooms/team:t1/stream`),
      channelStream: await firstEvent(`${svc.base}/v1/channels/general/stream`),
    };
    for (const [what, answer] of Object.entries(answers)) {
      expect(nonIsoTimes(answer), what).toEqual([]);
      expect(timeFieldCount(answer), what).toBeGreaterThan(0);
    }
    expect(answers['decided']).toMatchObject({
      approval: { decidedAt: expect.stringMatching(/Z$/) as unknown },
    });
  });
});
