// The backplane tools through a real SDK client (in-memory): each tool's happy path and exact
// text, the spec's tool-errors, `invalid args` tool errors for wrong types, `from` bound to the
// principal.
import { afterEach, describe, expect, it } from 'vitest';

import type { Principal } from '../../src/backplane/index.js';
import { callInvalid } from '../helpers.js';
import { ask, backplaneSessions, credentialsOf, okText, ULID } from './helpers.js';

const s = backplaneSessions();
afterEach(() => s.closeAll());

async function withAgent(
  type: 'worker' | 'orchestrator' | 'observer' = 'worker',
  nick = 'worker-001',
) {
  const core = await s.open();
  const op = await s.connect(core);
  const creds = credentialsOf(await okText(op, 'register_agent', { nick, type }));
  const principal = await core.backplane.agents.authenticateToken(creds.token);
  if (principal === undefined) throw new Error('token did not authenticate');
  return { core, op, creds, agent: await s.connect(core, principal), principal };
}

describe('backplane tools', () => {
  it('lists exactly the five spec tools', async () => {
    const client = await s.connect(await s.open());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_history',
      'get_status',
      'list_channels',
      'register_agent',
      'send_message',
    ]);
  });

  it('get_status counts active and total agents', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    expect(await okText(op, 'get_status')).toBe('status: ok\nagents: 0 active, 0 total');
    const a = credentialsOf(await okText(op, 'register_agent', { nick: 'a1' }));
    await okText(op, 'register_agent', { nick: 'a2' });
    expect(await okText(op, 'get_status')).toBe('status: ok\nagents: 0 active, 2 total');
    await core.backplane.agents.authenticateToken(a.token); // seen now
    expect(await okText(op, 'get_status')).toBe('status: ok\nagents: 1 active, 2 total');
    const release = core.backplane.agents.markConnected('a2'); // the IRC gateway's hook
    expect(await okText(op, 'get_status')).toBe('status: ok\nagents: 2 active, 2 total');
    release();
    await core.backplane.agents.revoke('a1');
    expect(await okText(op, 'get_status')).toBe('status: ok\nagents: 0 active, 1 total');
  });

  it('list_channels shows the defaults, member counts and topics', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    expect(await okText(op, 'list_channels')).toBe(
      '#fleet (0 members)\n#general (0 members) — main coordination channel',
    );
    await okText(op, 'register_agent', { nick: 'w1', channels: ['#general', '#fleet'] });
    await okText(op, 'register_agent', { nick: 'w2', channels: ['#general', '#project.cairn.ci'] });
    await core.backplane.channels.setTopic('#fleet', 'workers report here', 'operator');
    await core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text: 'hi' });
    expect(await okText(op, 'list_channels')).toBe(
      [
        '#fleet (1 members) — workers report here',
        '#general (2 members) — main coordination channel',
        '#project.cairn.ci (1 members)',
        '#team.t1 (1 members)',
      ].join('\n'),
    );
  });

  it('register_agent returns the credentials once, in the spec format', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    const text = await okText(op, 'register_agent', { nick: 'worker-001', channels: ['#general'] });
    expect(text).toMatch(
      /^Agent registered: worker-001\nnick: worker-001\npassword: [A-Za-z0-9_-]{24}\ntoken: cairn_agent_[0-9a-f]{18}\.[A-Za-z0-9_-]{43}\nchannels: #general$/,
    );
    const creds = credentialsOf(text);
    // Only salted scrypt hashes are stored.
    const row = await core.store.get<Record<string, string>>('SELECT * FROM agents');
    expect(JSON.stringify(row)).not.toContain(creds.password);
    expect(JSON.stringify(row)).not.toContain(creds.token.split('.')[1]);
    expect(row?.['password_hash']).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await core.backplane.agents.authenticatePassword('worker-001', creds.password)).toEqual({
      kind: 'agent',
      nick: 'worker-001',
      type: 'worker',
    });
    expect(await core.backplane.agents.authenticatePassword('worker-001', 'wrong')).toBeUndefined();
  });

  it('register_agent refuses a missing, taken, malformed or reserved nick', async () => {
    const op = await s.connect(await s.open());
    expect(await ask(op, 'register_agent', {})).toEqual({
      kind: 'tool-error',
      text: 'nick is required',
    });
    await okText(op, 'register_agent', { nick: 'Claude-1' });
    expect(await ask(op, 'register_agent', { nick: 'claude-1' })).toEqual({
      kind: 'tool-error',
      text: 'nick is taken: claude-1',
    });
    expect(await callInvalid(op, 'register_agent', { nick: 'has space' })).toMatch(
      /^invalid args: nick: a nick is/,
    );
    expect(await callInvalid(op, 'register_agent', { nick: 'operator' })).toBe(
      'invalid args: nick: operator is reserved',
    );
    expect(await callInvalid(op, 'register_agent', { nick: 42 })).toMatch(/^invalid args: nick: /);
    expect(await callInvalid(op, 'register_agent', { nick: 'x', type: 'king' })).toMatch(
      /^invalid args: type: /,
    );
    expect(await callInvalid(op, 'register_agent', { nick: 'x', channels: ['general'] })).toMatch(
      /^invalid args: channels(\.0)?: /,
    );
  });

  it('register_agent is all or nothing: a join that fails leaves no agent, channel or member', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    // Hostile channel state: the roster refuses this one room (a real database failure
    // mid-write: a trigger on SQLite, a check constraint on PostgreSQL).
    const sqlite = core.store.dialect === 'sqlite';
    await core.store.run(
      sqlite
        ? `CREATE TRIGGER refuse_doomed BEFORE INSERT ON room_members WHEN NEW.room_id LIKE '%doomed%'
       BEGIN SELECT RAISE(ABORT, 'roster refused'); END`
        : `ALTER TABLE room_members ADD CONSTRAINT refuse_doomed
       CHECK (room_id NOT LIKE '%doomed%') NOT VALID`,
    );
    const failed = await ask(op, 'register_agent', {
      nick: 'half-joined',
      channels: ['#fleet', '#fresh', '#doomed'],
    });
    expect(failed).toMatchObject({ kind: 'rpc-error', code: -32603 });
    const left = async (sql: string) => core.store.all(sql);
    expect(await left("SELECT nick FROM agents WHERE nick = 'half-joined'")).toEqual([]);
    expect(await left("SELECT agent_id FROM room_members WHERE agent_id = 'half-joined'")).toEqual(
      [],
    );
    expect(await left("SELECT name FROM channels WHERE name IN ('#fresh', '#doomed')")).toEqual([]);
    // Once the channel state is sane again, the same registration succeeds in full.
    await core.store.run(
      sqlite
        ? 'DROP TRIGGER refuse_doomed'
        : 'ALTER TABLE room_members DROP CONSTRAINT refuse_doomed',
    );
    const creds = credentialsOf(
      await okText(op, 'register_agent', {
        nick: 'half-joined',
        channels: ['#fleet', '#fresh', '#doomed'],
      }),
    );
    expect(creds.nick).toBe('half-joined');
    const joined = await left(
      "SELECT room_id FROM room_members WHERE agent_id = 'half-joined' ORDER BY room_id",
    );
    expect(joined).toHaveLength(3);
  });

  it('only the operator or an orchestrator registers agents', async () => {
    const { agent, core } = await withAgent('worker');
    expect(await ask(agent, 'register_agent', { nick: 'sneaky' })).toEqual({
      kind: 'tool-error',
      text: 'only the operator or an orchestrator may register agents',
    });
    const lead = await withAgent('orchestrator', 'lead');
    expect(await okText(lead.agent, 'register_agent', { nick: 'helper' })).toContain(
      'nick: helper',
    );
    expect((await lead.core.backplane.agents.get('helper')).createdBy).toBe('lead');
    expect(core).toBeDefined();
  });

  it('send_message and get_history use the spec lines; from is the principal', async () => {
    const { agent, op } = await withAgent();
    expect(
      await okText(agent, 'send_message', {
        channel: '#general',
        type: 'task.complete',
        payload: { task: 7 },
        from: 'orchestrator', // not a parameter: ignored
      }),
    ).toBe('message sent to #general');
    await okText(op, 'send_message', {
      channel: '#general',
      type: 'task.create',
      to: ['@workers'],
    });
    const r = await ask(agent, 'get_history', { channel: '#general' });
    if (r.kind !== 'ok') throw new Error(JSON.stringify(r));
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('# history: #general (last 2)');
    expect(lines[1]).toMatch(
      /^\[#general\] <worker-001> type=task\.complete id=[0-9A-HJKMNP-TV-Z]{26} — \{"task":7\}$/,
    );
    expect(lines[2]).toMatch(
      /^\[#general\] <operator> type=task\.create id=[0-9A-HJKMNP-TV-Z]{26}$/,
    );
    const messages = r.structured?.['messages'] as Array<Record<string, unknown>>;
    expect(messages[0]).toMatchObject({
      v: 1,
      type: 'task.complete',
      from: 'worker-001',
      to: [],
      payload: { task: 7 },
    });
    expect(messages[1]).toMatchObject({ from: 'operator', to: ['@workers'], payload: {} });
    expect(String(messages[0]?.['id'])).toMatch(ULID);
    expect(String(messages[0]?.['id']) < String(messages[1]?.['id'])).toBe(true);
  });

  it('get_history text carries each body on one bounded line', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    const long = `${'x'.repeat(250)}\n\nend`;
    const sends = [
      { type: 'text', payload: { text: 'first line\r\n\n  second\tline\u2028third' } },
      { type: 'text', payload: { text: long } },
      { type: 'task.create', payload: { title: 'fix\nit' } },
    ];
    for (const m of sends) await okText(op, 'send_message', { channel: '#fleet', ...m });
    const lines = (await okText(op, 'get_history', { channel: '#fleet' })).split('\n');
    expect(lines).toHaveLength(4);
    const id = '[0-9A-HJKMNP-TV-Z]{26}';
    expect(lines[1]).toMatch(
      new RegExp(`^\\[#fleet\\] <operator> type=text id=${id} — first line second line third$`),
    );
    const cut = `${'x'.repeat(200)}… (254 chars; full text in structuredContent.messages)`;
    expect(lines[2]).toMatch(new RegExp(`^\\[#fleet\\] <operator> type=text id=${id} — `));
    expect(lines[2]?.endsWith(` — ${cut}`)).toBe(true);
    expect(lines[3]).toMatch(/type=task\.create id=\S+ — \{"title":"fix\\nit"\}$/);
  });

  it('get_history defaults to the last 20 and honours limit', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    for (let i = 0; i < 25; i++) {
      await okText(op, 'send_message', {
        channel: '#fleet',
        type: 'text',
        payload: { text: `n${i}` },
      });
    }
    const all = await ask(op, 'get_history', { channel: '#fleet' });
    expect(all.kind === 'ok' && all.text.split('\n')).toHaveLength(21);
    expect(all.kind === 'ok' && all.text.split('\n')[0]).toBe('# history: #fleet (last 20)');
    const msgs = (all.kind === 'ok' ? all.structured?.['messages'] : []) as Array<{
      payload: { text: string };
    }>;
    expect(msgs.map((m) => m.payload.text)).toEqual(
      Array.from({ length: 20 }, (_, i) => `n${i + 5}`),
    );
    const five = await okText(op, 'get_history', { channel: '#fleet', limit: 5 });
    expect(five.split('\n')[0]).toBe('# history: #fleet (last 5)');
    expect(await okText(op, 'get_history', { channel: '#general' })).toBe(
      '# history: #general (last 0)',
    );
    expect(await ask(op, 'get_history', { channel: '#nope' })).toEqual({
      kind: 'tool-error',
      text: 'channel not found: #nope',
    });
    expect(await ask(op, 'get_history', {})).toEqual({
      kind: 'tool-error',
      text: 'channel is required',
    });
    expect(await callInvalid(op, 'get_history', { channel: '#fleet', limit: 0 })).toBe(
      'invalid args: limit: limit must be at least 1',
    );
  });

  it('team rooms are #team.<teamId>: teamchat posts and envelopes share one history', async () => {
    const core = await s.open();
    const op = await s.connect(core);
    await core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text: 'from teamchat' });
    await okText(op, 'send_message', {
      channel: '#team.t1',
      type: 'text',
      payload: { text: 'from backplane' },
    });
    const r = await ask(op, 'get_history', { channel: '#team.t1' });
    const msgs = (r.kind === 'ok' ? r.structured?.['messages'] : []) as Array<
      Record<string, unknown>
    >;
    expect(msgs.map((m) => [m['from'], m['type'], m['payload']])).toEqual([
      ['ann', 'text', { text: 'from teamchat' }],
      ['operator', 'text', { text: 'from backplane' }],
    ]);
    const page = await core.rooms.read({ roomId: 'team:t1', sinceSeq: 0, limit: 10 });
    expect(page.posts[1]?.wrapped).toContain('from backplane');
  });

  it('send_message refusals: missing fields, observers', async () => {
    const { op } = await withAgent();
    expect(await ask(op, 'send_message', { type: 'text' })).toEqual({
      kind: 'tool-error',
      text: 'channel is required',
    });
    expect(await ask(op, 'send_message', { channel: '#general' })).toEqual({
      kind: 'tool-error',
      text: 'type is required',
    });
    const watcher = await withAgent('observer', 'eyes');
    expect(
      await ask(watcher.agent, 'send_message', {
        channel: '#general',
        type: 'text',
        payload: { text: 'x' },
      }),
    ).toEqual({
      kind: 'tool-error',
      text: 'observers cannot send messages',
    });
  });
});

describe('principals', () => {
  it('an agent cannot send as anyone else, whatever the arguments say', async () => {
    const { agent, core } = await withAgent();
    const hostile = {
      channel: '#general',
      type: 'text',
      payload: { text: 'hi', from: 'operator' },
      authorAgentId: 'operator',
      nick: 'operator',
    };
    await okText(agent, 'send_message', hostile);
    const [m] = await core.backplane.history({ channel: '#general' });
    expect(m?.envelope.from).toBe('worker-001');
    const roster = await core.rooms.members('#general');
    expect(roster).toEqual(['worker-001']);
  });

  it('a revoked or rotated token stops authenticating', async () => {
    const { core, creds, principal } = await withAgent();
    expect(principal).toEqual({ kind: 'agent', nick: 'worker-001', type: 'worker' });
    const rotated = await core.backplane.agents.rotate('worker-001');
    expect(await core.backplane.agents.authenticateToken(creds.token)).toBeUndefined();
    expect(
      await core.backplane.agents.authenticatePassword('worker-001', creds.password),
    ).toBeUndefined();
    expect(await core.backplane.agents.authenticateToken(rotated.token)).toMatchObject({
      nick: 'worker-001',
    });
    await core.backplane.agents.revoke('worker-001');
    expect(await core.backplane.agents.authenticateToken(rotated.token)).toBeUndefined();
    expect(await core.backplane.agents.authenticateToken('cairn_agent_nope')).toBeUndefined();
    const p: Principal | undefined = await core.backplane.agents.authenticateToken(
      `${rotated.token}x`,
    );
    expect(p).toBeUndefined();
  });
});
