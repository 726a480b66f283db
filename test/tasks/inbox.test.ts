// The mid-run inbox piggyback through a real SDK client: what is addressed to a bound agent
// (a comment on a task it holds, an @mention in a room or a comment, a backplane envelope
// naming it, its expired claim) rides along once on its next tasks tool result.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { InboxDelivery, Task } from '../../src/board/index.js';
import { INBOX_META } from '../../src/mcp/tasks-server.js';
import { callOk, fakeClock, tasksSessions } from '../helpers.js';

const sessions = tasksSessions();
afterEach(() => sessions.closeAll());

/** Calls a tool; returns the result, its piggybacked inbox (or null) and every text block. */
async function callWithInbox(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ result: CallToolResult; inbox: InboxDelivery | null; texts: string[] }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const inbox = (result._meta?.[INBOX_META] as InboxDelivery | undefined) ?? null;
  const texts = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
  return { result, inbox, texts };
}

async function claimed(client: Client, title: string): Promise<Task> {
  const task = await callOk<Task>(client, 'create_task', { title });
  return callOk<Task>(client, 'claim_task', { taskId: task.id, assigneeAgentId: 'ignored' });
}

describe('inbox piggyback', () => {
  it("hands a human's comment on the agent's task to its next call, once", async () => {
    const { core, client } = await sessions.open({}, { scopeAgentId: 'builder' });
    const task = await claimed(client, 'ship it');
    await core.board.addComment({
      taskId: task.id,
      body: 'Also update the docs',
      authorType: 'user',
    });

    const first = await callWithInbox(client, 'list_tasks');
    expect(first.result.isError).toBeFalsy();
    // The tool's own answer is untouched: first block and structured content.
    expect(JSON.parse(first.texts[0] ?? '')).toEqual(first.result.structuredContent);
    expect(first.inbox).toEqual({
      items: [
        {
          kind: 'comment',
          source: task.id,
          ref: expect.any(String) as string,
          from: 'user',
          text: 'Also update the docs',
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
        },
      ],
      more: 0,
    });
    expect(first.texts[1]).toMatch(
      new RegExp(
        `^Inbox for builder: 1 new\\n- comment on task ${task.id} from user at \\S+: "Also update the docs"$`,
      ),
    );
    const again = await callWithInbox(client, 'list_tasks');
    expect(again.inbox).toBeNull();
    expect(again.texts).toHaveLength(1);
  });

  it("does not tell an agent about its own comment, and another agent's comment reaches the holder", async () => {
    const { core, client, connect } = await sessions.open({}, { scopeAgentId: 'builder' });
    const task = await claimed(client, 'ship it');
    // The comment's own result would carry an entry addressed to its author.
    expect(
      (await callWithInbox(client, 'add_comment', { taskId: task.id, body: 'started' })).inbox,
    ).toBeNull();
    expect(await core.store.get('SELECT 1 AS x FROM agent_inbox')).toBeUndefined();

    const reviewer = await connect({ scopeAgentId: 'reviewer' });
    await callOk(reviewer, 'add_comment', { taskId: task.id, body: 'looks risky' });
    const got = await callWithInbox(client, 'list_tasks');
    expect(got.inbox?.items).toMatchObject([{ kind: 'comment', from: 'reviewer' }]);
    // The reviewer is not told of its own comment either.
    expect((await callWithInbox(reviewer, 'list_tasks')).inbox).toBeNull();
  });

  it('delivers room @mentions to each named agent, not to e-mail look-alikes', async () => {
    const { core, client, connect } = await sessions.open({}, { scopeAgentId: 'builder' });
    const bob = await connect({ scopeAgentId: 'bob' });
    const mailer = await connect({ scopeAgentId: 'example.com' });
    await core.rooms.post({
      roomId: 'team:t1',
      authorAgentId: 'ann',
      text: '@builder please rebase; cc @bob. (mail ops@example.com)',
    });
    const got = await callWithInbox(client, 'list_tasks');
    expect(got.inbox?.items).toMatchObject([
      { kind: 'mention', source: 'team:t1', ref: 'team:t1#1', from: 'ann' },
    ]);
    expect(got.texts[1]).toContain('- @mention in team:t1 from ann at ');
    expect((await callWithInbox(bob, 'list_tasks')).inbox?.items).toHaveLength(1);
    expect((await callWithInbox(mailer, 'list_tasks')).inbox).toBeNull();
  });

  it('delivers a backplane envelope to the nicks in its `to`, not to groups', async () => {
    const { core, client, connect } = await sessions.open({}, { scopeAgentId: 'builder' });
    const worker = await connect({ scopeAgentId: 'w2' });
    await core.backplane.send(
      { kind: 'operator' },
      {
        channel: '#builds',
        type: 'task.assign',
        to: ['builder', '@workers'],
        payload: { task: 'rebuild the index' },
      },
    );
    const got = await callWithInbox(client, 'list_tasks');
    expect(got.inbox?.items).toMatchObject([
      { kind: 'message', source: '#builds', ref: '#builds#1', from: 'operator' },
    ]);
    expect(got.inbox?.items[0]?.text).toContain('task.assign');
    expect(got.texts[1]).toContain('- message in #builds from operator at ');
    expect((await callWithInbox(worker, 'list_tasks')).inbox).toBeNull();
  });

  it('delivers an @mention inside a task comment', async () => {
    const { core, client } = await sessions.open({}, { scopeAgentId: 'builder' });
    const task = await core.board.createTask({ title: 'unclaimed' });
    await core.board.addComment({ taskId: task.id, body: 'needs @builder', authorAgentId: 'ann' });
    const got = await callWithInbox(client, 'list_tasks');
    expect(got.inbox?.items).toMatchObject([{ kind: 'mention', source: task.id, from: 'ann' }]);
    expect(got.texts[1]).toContain(`- @mention in a comment on task ${task.id} from ann`);
  });

  it('rides on tool-errors too', async () => {
    const { core, client } = await sessions.open({}, { scopeAgentId: 'builder' });
    await core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text: 'ping @builder' });
    const got = await callWithInbox(client, 'get_task', { taskId: 'no-such-task' });
    expect(got.result.isError).toBe(true);
    expect(got.texts[0]).toBe('not found: no-such-task');
    expect(got.inbox?.items).toHaveLength(1);
  });

  it('tells the agent its claim expired', async () => {
    const clock = fakeClock();
    const { client } = await sessions.open(
      { clock: clock.now, leaseMs: 60_000 },
      { scopeAgentId: 'builder' },
    );
    const task = await claimed(client, 'slow work');
    clock.advance(61_000);
    const got = await callWithInbox(client, 'list_tasks');
    expect(got.inbox?.items).toEqual([
      expect.objectContaining({
        kind: 'comment',
        source: task.id,
        from: null,
        text: 'lease expired: claim by builder returned the task to todo',
      }),
    ]);
    expect(got.texts[1]).toContain(`- comment on task ${task.id} from the system at `);
  });

  it('hands over at most 10 per call, oldest first, and says how many wait', async () => {
    const { core, client } = await sessions.open({}, { scopeAgentId: 'builder' });
    for (let i = 1; i <= 13; i++)
      await core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text: `@builder #${i}` });
    const first = await callWithInbox(client, 'list_tasks');
    expect(first.inbox?.items.map((i) => i.text)).toEqual(
      Array.from({ length: 10 }, (_, i) => `@builder #${i + 1}`),
    );
    expect(first.inbox?.more).toBe(3);
    expect(first.texts[1]).toMatch(/^Inbox for builder: 10 new \(3 more waiting/);
    const second = await callWithInbox(client, 'list_tasks');
    expect(second.inbox).toMatchObject({ more: 0 });
    expect(second.inbox?.items).toHaveLength(3);
  });

  it('piggybacks only on bound sessions; the entries wait for the agent', async () => {
    const { core, client, connect } = await sessions.open();
    await core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text: 'hi @builder' });
    expect((await callWithInbox(client, 'list_tasks')).inbox).toBeNull();
    const builder = await connect({ scopeAgentId: 'builder' });
    expect((await callWithInbox(builder, 'list_tasks')).inbox?.items).toHaveLength(1);
  });

  it('bounds a hostile message: 20 mentions at most, a 280-character excerpt', async () => {
    const { core, client } = await sessions.open({}, { scopeAgentId: 'a0' });
    const names = Array.from({ length: 200 }, (_, i) => `@a${i}`).join(' ');
    const text = `${names} ${'🦀'.repeat(5000)} \u0000 "quotes" \\ end`;
    await core.rooms.post({ roomId: 'team:t1', authorAgentId: 'spam', text });
    const count = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM agent_inbox');
    expect(count?.n).toBe(20);
    const got = await callWithInbox(client, 'list_tasks');
    const item = got.inbox?.items[0];
    expect(item?.text.length).toBeLessThanOrEqual(280);
    expect(item?.text.endsWith('…')).toBe(true);
  });
});
