// Envelope validation with hostile input, and temporary channels expiring on an injected clock.
import { afterEach, describe, expect, it } from 'vitest';

import { callInvalid, fakeClock } from '../helpers.js';
import { ask, backplaneSessions, okText } from './helpers.js';

const s = backplaneSessions();
afterEach(() => s.closeAll());

const send = (payload: unknown, extra: Record<string, unknown> = {}) => ({
  channel: '#general',
  type: 'task.update',
  payload,
  ...extra,
});

describe('envelope validation', () => {
  it.each([
    [
      'a 64 KiB + 1 payload',
      send({ blob: 'x'.repeat(64 * 1024) }),
      /payload: is 655\d\d bytes of JSON; the cap is 65536 \(64 KiB\)/,
    ],
    ['an array payload', send([1, 2]), /payload: /],
    ['a string payload', send('hello'), /payload: /],
    ['a numeric type', { channel: '#general', type: 7 }, /type: /],
    [
      'a type with spaces',
      { channel: '#general', type: 'Task Create!' },
      /type: "Task Create!" is not a dotted type name/,
    ],
    ['a type with an empty segment', { channel: '#general', type: 'task..create' }, /type: /],
    ['a trailing dot', { channel: '#general', type: 'task.' }, /type: /],
    ['a 101-character type', { channel: '#general', type: 'a'.repeat(101) }, /type: /],
    ['to as a string', send({}, { to: '@all' }), /to: /],
    [
      'a bad recipient',
      send({}, { to: ['@all', 'bad nick!'] }),
      /to\[1\]: "bad nick!" is not a nick/,
    ],
    [
      '51 recipients',
      send({}, { to: Array.from({ length: 51 }, (_, i) => `n${i}`) }),
      /to: at most 50 recipients/,
    ],
    [
      'text without payload.text',
      { channel: '#general', type: 'text', payload: { body: 'x' } },
      /payload\.text: a text message needs payload\.text/,
    ],
    [
      'a bad channel name',
      { channel: '#Bad Name', type: 'text' },
      /channel: #Bad Name: a channel is #name/,
    ],
    ['a channel without #', { channel: 'general', type: 'text' }, /channel: /],
    ['a wrong project form', { channel: '#project.only-two', type: 'text' }, /channel: /],
    ['a channel as a number', { channel: 5, type: 'text' }, /channel: /],
  ])(
    'refuses %s with the tool error invalid args naming the field',
    async (_name, args, message) => {
      const op = await s.connect(await s.open());
      const text = await callInvalid(op, 'send_message', args as Record<string, unknown>);
      expect(text).toMatch(/^invalid args: /);
      expect(text).toMatch(message);
    },
  );

  it('reads a null payload (or to) as not given: sent without one, refused when text needs it', async () => {
    const op = await s.connect(await s.open());
    expect(await okText(op, 'send_message', send(null, { to: null }))).toBe(
      'message sent to #general',
    );
    expect(await callInvalid(op, 'send_message', { ...send(null), type: 'text' })).toMatch(
      /^invalid args: payload\.text: a text message needs payload\.text/,
    );
  });

  it('accepts exactly 64 KiB, any dotted type, groups and prefix patterns; nothing partial is stored', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    const filler = 'x'.repeat(64 * 1024 - '{"blob":""}'.length);
    expect(await okText(op, 'send_message', send({ blob: filler }))).toBe(
      'message sent to #general',
    );
    await okText(op, 'send_message', {
      channel: '#agent.claude-1',
      type: 'review.requested.v2',
      to: ['@all', '@orchestrators', '@claude-*', 'worker-001', '@worker-002'],
    });
    await ask(op, 'send_message', send({ blob: `${filler}yy` }));
    const rows = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM room_posts');
    const envs = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM room_envelopes');
    expect([rows?.n, envs?.n]).toEqual([2, 2]);
  });
});

describe('temporary channels', () => {
  it('are archived after their lifetime: history kept, read-only, hidden from list_channels', async () => {
    const clock = fakeClock();
    const core = await s.open({ clock: clock.now });
    const op = await s.connect(core);
    const ch = await core.backplane.channels.create({
      name: '#incident-42',
      topic: 'db outage',
      ttlMs: 60_000,
      createdBy: 'operator',
    });
    expect(ch).toMatchObject({
      name: '#incident-42',
      expiresAt: clock.now() + 60_000,
      archived: false,
    });
    await okText(op, 'send_message', {
      channel: '#incident-42',
      type: 'text',
      payload: { text: 'on it' },
    });
    expect(await okText(op, 'list_channels')).toContain('#incident-42 (1 members) — db outage');
    clock.advance(59_999);
    await okText(op, 'send_message', {
      channel: '#incident-42',
      type: 'text',
      payload: { text: 'fixed' },
    });
    clock.advance(1);
    expect(
      await ask(op, 'send_message', {
        channel: '#incident-42',
        type: 'text',
        payload: { text: 'late' },
      }),
    ).toEqual({
      kind: 'tool-error',
      text: 'channel #incident-42 is archived (read-only)',
    });
    await expect(core.backplane.channels.setTopic('#incident-42', 'x', 'operator')).rejects.toThrow(
      /archived/,
    );
    await expect(core.backplane.channels.join('#incident-42', 'someone')).rejects.toThrow(
      /archived/,
    );
    expect(await okText(op, 'list_channels')).not.toContain('#incident-42');
    const history = await okText(op, 'get_history', { channel: '#incident-42' });
    expect(history.split('\n')).toHaveLength(3);
    expect(
      (await core.backplane.channels.list({ includeArchived: true })).find(
        (c) => c.name === '#incident-42',
      ),
    ).toMatchObject({ archived: true });
    await expect(
      core.backplane.channels.create({ name: '#incident-42', createdBy: 'operator' }),
    ).rejects.toThrow('channel exists: #incident-42');
  });
});

describe('follow (the IRC gateway fan-out)', () => {
  it('delivers existing and new messages in order, from any principal, until aborted', async () => {
    const core = await s.open();
    const bp = core.backplane;
    await bp.send(
      { kind: 'operator' },
      { channel: '#fleet', type: 'text', payload: { text: 'old' } },
    );
    const from = await bp.cursor('#fleet');
    const seen: string[] = [];
    const ac = new AbortController();
    const done = bp.follow(
      '#fleet',
      from,
      (m) => void seen.push(`${m.seq}:${m.envelope.from}:${m.envelope.type}`),
      ac.signal,
    );
    await bp.agents.register({ nick: 'irc-1', type: 'worker', createdBy: 'operator' });
    await bp.channels.join('#fleet', 'irc-1');
    await bp.send(
      { kind: 'agent', nick: 'irc-1', type: 'worker' },
      { channel: '#fleet', type: 'text', payload: { text: 'a human line' } },
    );
    await core.rooms.post({ roomId: '#fleet', authorAgentId: 'x', text: 'raw' });
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    await done;
    expect(seen).toEqual(['2:irc-1:text', '3:x:text']);
    expect((await bp.channels.get('#fleet')).members).toEqual(['irc-1', 'operator', 'x']);
    expect(await bp.channels.part('#fleet', 'irc-1')).toBe(true);
    expect((await bp.channels.get('#fleet')).members).toEqual(['operator', 'x']);
  });
});
