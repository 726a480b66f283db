// The IRC gateway against a client nobody here wrote (npm irc-framework): SASL login, join,
// an MCP-sent envelope arriving as PRIVMSG JSON + NOTICE, a human line that get_history shows,
// SASL failure, presence in get_status, team rooms, and lines between two IRC clients.
import type { Client as IrcClient, MessageEvent } from 'irc-framework';
import { afterEach, describe, expect, it } from 'vitest';

import { createHttpService } from '../../src/http/index.js';
import { createBackplaneServer } from '../../src/mcp/index.js';
import { okText, spawnBackplane } from '../backplane/helpers.js';
import { fakeClock, linkedClient, tempDir } from '../helpers.js';
import { eventually, frameworkClient, type IrcEnv, ircEnv, joined, until } from './helpers.js';

let env: IrcEnv | undefined;
const clients: IrcClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.quit();
  await env?.close();
  env = undefined;
});

async function open(): Promise<IrcEnv> {
  env = await ircEnv();
  return env;
}

async function login(e: IrcEnv, nick: string, password: string): Promise<IrcClient> {
  const c = await frameworkClient(e.port, nick, password);
  clients.push(c);
  return c;
}

function collect(client: IrcClient): MessageEvent[] {
  const seen: MessageEvent[] = [];
  client.on('message', (m: MessageEvent) => seen.push(m));
  return seen;
}

describe('IRC gateway with irc-framework', () => {
  it('logs in with SASL, receives an MCP envelope, and its line shows in get_history', async () => {
    const e = await open();
    const worker = await e.agent('worker-001');
    const sender = await e.agent('orch-1', { type: 'orchestrator' });
    const irc = await login(e, 'worker-001', worker.password);
    expect(irc.user.nick).toBe('worker-001');
    const seen = collect(irc);
    await joined(irc, '#general');

    const principal = await e.core.backplane.agents.authenticateToken(sender.token);
    const mcp = await linkedClient(createBackplaneServer(e.core, { principal }));
    await okText(mcp, 'send_message', {
      channel: '#general',
      type: 'task.create',
      payload: { title: 'build the gateway' },
      to: ['@workers'],
    });
    await until(() => seen.length >= 2, 'the envelope on IRC');
    const [json, human] = seen;
    expect(json).toMatchObject({ type: 'privmsg', nick: 'orch-1', target: '#general' });
    const envelope = JSON.parse(json?.message ?? '') as Record<string, unknown>;
    expect(envelope).toMatchObject({
      v: 1,
      type: 'task.create',
      from: 'orch-1',
      to: ['@workers'],
      payload: { title: 'build the gateway' },
    });
    expect(human).toMatchObject({ type: 'notice', nick: 'orch-1', target: '#general' });
    expect(human?.message).toBe('task.create → @workers: {"title":"build the gateway"}');
    expect(json?.tags['msgid']).toBe(envelope['id']);
    expect(json?.tags['time']).toBe(envelope['ts']);

    irc.say('#general', 'on it, building now');
    const text = await eventually(
      () => okText(mcp, 'get_history', { channel: '#general', limit: 5 }),
      (t) => t.includes('<worker-001>'),
      'the IRC line in get_history',
    );
    expect(text).toMatch(/\[#general\] <worker-001> type=text id=[0-9A-Z]{26}/);
    const last = (await e.core.backplane.history({ channel: '#general', limit: 1 }))[0];
    expect(last?.envelope).toMatchObject({
      type: 'text',
      from: 'worker-001',
      payload: { text: 'on it, building now' },
    });
    await mcp.close();
  });

  it('SASL with a wrong password fails with 904 and does not register', async () => {
    const e = await open();
    await e.agent('worker-002');
    const { Client } = await import('irc-framework');
    const c = new Client();
    clients.push(c);
    const failed = new Promise<{ reason: string; message?: string }>((resolve) =>
      c.once('sasl failed', resolve),
    );
    let registered = false;
    c.once('registered', () => (registered = true));
    c.connect({
      host: '127.0.0.1',
      port: e.port,
      nick: 'worker-002',
      account: { account: 'worker-002', password: 'wrong-password-123456789' },
      auto_reconnect: false,
    });
    const event = await failed;
    expect(event.reason).toBe('fail');
    expect(event.message).toBe('SASL authentication failed');
    await new Promise((r) => setTimeout(r, 200));
    expect(registered).toBe(false);
  });

  it('an IRC-connected agent counts as active in get_status until it quits', async () => {
    const clock = fakeClock();
    const e = await ircEnv({}, { clock: clock.now });
    env = e;
    const a = await e.agent('present-1');
    const op = await linkedClient(createBackplaneServer(e.core, {}));
    expect(await okText(op, 'get_status')).toBe('status: ok\nagents: 0 active, 1 total');
    const irc = await login(e, 'present-1', a.password);
    clock.advance(60 * 60_000); // far past the 5 min last-seen window
    expect(await okText(op, 'get_status')).toBe('status: ok\nagents: 1 active, 1 total');
    irc.quit('bye');
    clients.splice(clients.indexOf(irc), 1);
    await until(() => e.gateway.connectionCount() === 0, 'the connection to close');
    expect(await okText(op, 'get_status')).toBe('status: ok\nagents: 0 active, 1 total');
    await op.close();
  });

  it('shows a team room as #team.<teamId>, both ways', async () => {
    const e = await open();
    const a = await e.agent('teammate');
    const irc = await login(e, 'teammate', a.password);
    const seen = collect(irc);
    await joined(irc, '#team.t1');
    await e.core.rooms.post({ roomId: 'team:t1', authorAgentId: 'ann', text: 'teamchat says hi' });
    await until(() => seen.length >= 1, 'the team room post');
    expect(seen[0]).toMatchObject({
      type: 'privmsg',
      nick: 'ann',
      target: '#team.t1',
      message: 'teamchat says hi',
    });
    irc.say('#team.t1', 'irc says hi back');
    const page = await eventually(
      () => e.core.rooms.read({ roomId: 'team:t1', sinceSeq: 0, limit: 10 }),
      (p) => p.posts.length >= 2,
      'the IRC line in the team room',
    );
    const posts = page.posts.map((p) => `${p.authorAgentId}: ${p.wrapped.split('\n')[1] ?? ''}`);
    expect(posts).toEqual(['ann: teamchat says hi', 'teammate: irc says hi back']);
  });

  it('carries lines between two IRC clients without echoing them to the sender', async () => {
    const e = await open();
    const a = await e.agent('ann-irc');
    const b = await e.agent('bob-irc');
    const ann = await login(e, 'ann-irc', a.password);
    const bob = await login(e, 'bob-irc', b.password);
    const annSeen = collect(ann);
    const bobSeen = collect(bob);
    await joined(ann, '#fleet');
    await joined(bob, '#fleet');
    ann.say('#fleet', 'hello bob');
    bob.notice('#fleet', 'a notice from bob');
    await until(() => bobSeen.length >= 1 && annSeen.length >= 1, 'both lines');
    expect(bobSeen[0]).toMatchObject({ type: 'privmsg', nick: 'ann-irc', message: 'hello bob' });
    expect(annSeen[0]).toMatchObject({
      type: 'notice',
      nick: 'bob-irc',
      message: 'a notice from bob',
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(annSeen).toHaveLength(1);
    expect(bobSeen).toHaveLength(1);
  });
});

describe('IRC gateway across processes', () => {
  it('delivers an envelope sent by another process (stdio backplane bin) on the same file', async () => {
    const e = await open();
    const a = await e.agent('far-reader');
    const irc = await login(e, 'far-reader', a.password);
    const seen = collect(irc);
    await joined(irc, '#fleet');
    const home = tempDir('cairn-irc-far-');
    const far = await spawnBackplane({ db: e.core.dbPath, home: home.path });
    try {
      await okText(far.client, 'send_message', {
        channel: '#fleet',
        type: 'agent.hello',
        payload: { from: 'another process' },
      });
      await until(() => seen.length >= 2, 'the cross-process envelope');
      expect(seen[0]).toMatchObject({ type: 'privmsg', nick: 'operator', target: '#fleet' });
      expect(JSON.parse(seen[0]?.message ?? '')).toMatchObject({
        type: 'agent.hello',
        from: 'operator',
        payload: { from: 'another process' },
      });
    } finally {
      await far.close();
      home.cleanup();
    }
  });

  it('delivers an envelope posted over REST (POST /v1/channels/{ch}/messages)', async () => {
    const e = await open();
    const a = await e.agent('rest-reader');
    const poster = await e.agent('rest-poster');
    const irc = await login(e, 'rest-reader', a.password);
    const seen = collect(irc);
    await joined(irc, '#general');
    const http = createHttpService(e.core, { port: 0, apiToken: 'test-token', secret: 'secret' });
    const { url } = await http.listen();
    try {
      const res = await fetch(`${url}/v1/channels/${encodeURIComponent('#general')}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${poster.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'task.complete', payload: { task: 't-1' } }),
      });
      expect(res.status).toBe(201);
      await until(() => seen.length >= 2, 'the REST envelope');
      expect(seen[0]).toMatchObject({ type: 'privmsg', nick: 'rest-poster' });
      expect(JSON.parse(seen[0]?.message ?? '')).toMatchObject({
        type: 'task.complete',
        from: 'rest-poster',
      });
      expect(seen[1]?.message).toBe('task.complete: {"task":"t-1"}');
    } finally {
      await http.close();
    }
  });
});
