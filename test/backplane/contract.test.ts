// Contract details through a real SDK client: tools/list advertises the spec's required fields
// (which, missing, still give the spec's tool-errors), get_history's limit (default 20, 1..500,
// refusals naming the field), register_agent is all or nothing, and the listings' order and
// filter (agents by nick in any case, team rooms by their `team:` prefix).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { callInvalid, fakeClock } from '../helpers.js';
import { ask, backplaneSessions, okText } from './helpers.js';

const s = backplaneSessions();
afterEach(() => s.closeAll());

async function inputSchemas(client: Client): Promise<Record<string, Record<string, unknown>>> {
  const { tools } = await client.listTools();
  return Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
}

describe('tools/list', () => {
  it('advertises the spec’s required fields and get_history’s default', async () => {
    const schemas = await inputSchemas(await s.connect(await s.open()));
    expect(schemas['register_agent']?.['required']).toEqual(['nick']);
    expect(schemas['send_message']?.['required']).toEqual(['channel', 'type']);
    expect(schemas['get_history']).toEqual({
      type: 'object',
      properties: {
        channel: { type: 'string', maxLength: 200 },
        limit: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
      },
      required: ['channel'],
    });
    expect(schemas['get_status']).toEqual({ type: 'object', properties: {} });
    expect(schemas['list_channels']).toEqual({ type: 'object', properties: {} });
    // Only arrays of names: a boolean `required` would not be valid JSON Schema.
    expect(JSON.stringify(schemas)).not.toMatch(/"required":(true|false)/);
  });

  it('still answers a missing required field with the spec’s tool-error', async () => {
    const op = await s.connect(await s.open());
    const cases: [string, Record<string, unknown>, string][] = [
      ['register_agent', {}, 'nick is required'],
      ['register_agent', { channels: ['#fresh'] }, 'nick is required'],
      ['send_message', { type: 'text' }, 'channel is required'],
      ['send_message', { channel: '#general' }, 'type is required'],
      ['get_history', {}, 'channel is required'],
      ['get_history', { limit: 5 }, 'channel is required'],
    ];
    for (const [name, args, text] of cases) {
      expect(await ask(op, name, args)).toEqual({ kind: 'tool-error', text });
    }
  });
});

describe('get_history limit', () => {
  it('defaults to 20 (also for null) and refuses a value outside 1..500 with invalid args naming limit', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    for (let i = 0; i < 21; i++) {
      await core.backplane.send({ kind: 'operator' }, { channel: '#fleet', type: `t.n${i}` });
    }
    const text = await okText(op, 'get_history', { channel: '#fleet' });
    expect(text.split('\n')[0]).toBe('# history: #fleet (last 20)');
    expect(text.split('\n')[1]).toContain('type=t.n1 ');
    expect(await okText(op, 'get_history', { channel: '#fleet', limit: 500 })).toContain(
      '(last 21)',
    );
    expect(await okText(op, 'get_history', { channel: '#fleet', limit: null })).toContain(
      '(last 20)',
    );
    const refusals: [unknown, string][] = [
      [0, 'invalid args: limit: limit must be at least 1'],
      [-3, 'invalid args: limit: limit must be at least 1'],
      [501, 'invalid args: limit: limit must be at most 500'],
      [2.5, 'invalid args: limit: limit must be an integer'],
      ['ten', 'invalid args: limit: limit must be a number'],
    ];
    for (const [limit, message] of refusals) {
      expect(await callInvalid(op, 'get_history', { channel: '#fleet', limit })).toBe(message);
    }
  });
});

describe('register_agent is all or nothing', () => {
  const fresh = async (core: Core) =>
    (await core.backplane.channels.list({ includeArchived: true })).map((c) => c.name);

  async function expectNoFresh(core: Core, op: Client): Promise<void> {
    expect(await fresh(core)).not.toContain('#fresh');
    expect(await okText(op, 'list_channels')).not.toContain('#fresh');
    await expect(core.backplane.channels.get('#fresh')).rejects.toThrow(
      'channel not found: #fresh',
    );
  }

  it.each([
    ['a reserved nick', 'operator', /^invalid args: nick: operator is reserved$/],
    ['another reserved nick', 'User', /^invalid args: nick: User is reserved$/],
    ['a malformed nick', 'has space', /^invalid args: nick: a nick is 1-32 characters/],
    ['a too-long nick', 'x'.repeat(33), /^invalid args: nick: a nick is 1-32 characters/],
  ])('leaves no channel behind when refusing %s', async (_what, nick, message) => {
    const core = await s.open();
    const op = await s.connect(core);
    expect(await callInvalid(op, 'register_agent', { nick, channels: ['#fresh'] })).toMatch(
      message,
    );
    await expectNoFresh(core, op);
  });

  it('leaves no channel behind when the nick is taken (in any case)', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    await okText(op, 'register_agent', { nick: 'Worker-1' });
    expect(await ask(op, 'register_agent', { nick: 'worker-1', channels: ['#fresh'] })).toEqual({
      kind: 'tool-error',
      text: 'nick is taken: worker-1',
    });
    await expectNoFresh(core, op);
    expect((await core.backplane.agents.list()).map((a) => a.nick)).toEqual(['Worker-1']);
  });

  it('leaves no channel behind for a principal that may not register', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    await okText(op, 'register_agent', { nick: 'w1' });
    const worker = await s.connect(core, { kind: 'agent', nick: 'w1', type: 'worker' });
    expect(await ask(worker, 'register_agent', { nick: 'w2', channels: ['#fresh'] })).toEqual({
      kind: 'tool-error',
      text: 'only the operator or an orchestrator may register agents',
    });
    await expectNoFresh(core, op);
  });

  it('registers neither the agent nor a new channel when another channel is archived', async () => {
    const clock = fakeClock();
    const core = await s.open({ clock: clock.now });
    const op = await s.connect(core);
    await core.backplane.channels.create({ name: '#old', ttlMs: 1000, createdBy: 'operator' });
    clock.advance(1000);
    expect(await ask(op, 'register_agent', { nick: 'late', channels: ['#fresh', '#old'] })).toEqual(
      { kind: 'tool-error', text: 'channel #old is archived (read-only)' },
    );
    await expectNoFresh(core, op);
    expect(await core.backplane.agents.list()).toEqual([]);
    // Nothing was half-done: the same nick registers cleanly afterwards.
    expect(await okText(op, 'register_agent', { nick: 'late', channels: ['#fresh'] })).toContain(
      'channels: #fresh',
    );
  });

  it('creates the channels and joins the agent when registration succeeds', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    await okText(op, 'register_agent', { nick: 'w9', channels: ['#fresh', '#general', '#Fresh'] });
    expect(await core.backplane.channels.get('#fresh')).toMatchObject({
      createdBy: 'operator',
      members: ['w9'],
    });
    expect((await core.backplane.channels.get('#general')).members).toEqual(['w9']);
    expect(await okText(op, 'list_channels')).toContain('#fresh (1 members)');
  });
});

describe('listings', () => {
  it('lists agents by nick ignoring case, and as team rooms only rooms named team:<id>', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    for (const nick of ['bob', 'Alice', 'carol', 'Dave']) {
      await okText(op, 'register_agent', { nick });
    }
    const nicks = (await core.backplane.agents.list()).map((a) => a.nick);
    expect(nicks).toEqual(['Alice', 'bob', 'carol', 'Dave']);
    for (const roomId of ['team:t1', 'teams:t2', 'xteam:t3']) {
      await core.rooms.post({ roomId, authorAgentId: 'bob', text: 'hi' });
    }
    const names = (await core.backplane.channels.list()).map((c) => c.name);
    expect(names.filter((n) => n.includes('team'))).toEqual(['#team.t1']);
  });
});
