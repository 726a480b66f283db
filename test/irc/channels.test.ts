// Channel commands over a raw socket: JOIN/PART/TOPIC/NAMES/LIST/WHO numerics, refusals
// (403, 404, 442, 401), `from` that cannot be spoofed, observers, and how envelopes that do
// not fit one line are shown (every line stays within 512 bytes).
import { afterEach, describe, expect, it } from 'vitest';

import { type IrcEnv, ircEnv, loggedIn } from './helpers.js';

let env: IrcEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function withUser(nick = 'chan-user', type?: 'observer') {
  env = await ircEnv();
  const a = await env.agent(nick, type === undefined ? {} : { type });
  return { e: env, c: await loggedIn(env.port, nick, a.password) };
}

describe('IRC channels', () => {
  it('joins with JOIN/332/333/353/366, parts with PART, and updates the roster', async () => {
    const { e, c } = await withUser();
    await e.core.backplane.channels.setTopic('#fleet', 'workers report here', 'operator');
    c.send('JOIN #Fleet');
    await c.expect(/^:chan-user!chan-user@cairn JOIN #fleet$/);
    await c.expect(/ 332 chan-user #fleet :workers report here$/);
    await c.expect(/ 333 chan-user #fleet operator \d+$/);
    await c.expect(/ 353 chan-user = #fleet :chan-user$/);
    await c.expect(/ 366 chan-user #fleet :End of \/NAMES list$/);
    expect((await e.core.backplane.channels.get('#fleet')).members).toEqual(['chan-user']);
    c.send('PART #fleet :done here');
    await c.expect(/^:chan-user!chan-user@cairn PART #fleet :done here$/);
    c.send('PART #fleet');
    await c.expect(/ 442 chan-user #fleet :You're not on that channel$/);
    expect((await e.core.backplane.channels.get('#fleet')).members).toEqual([]);
    c.close();
  });

  it('refuses bad names (403), sending outside a channel (404) and private messages (401)', async () => {
    const { c } = await withUser();
    c.send('JOIN #Bad.Name.With.Too.Many', 'PRIVMSG #general :not joined', 'PRIVMSG bob :hi');
    await c.expect(/ 403 chan-user #Bad\.Name\.With\.Too\.Many :No such channel \(a channel is/);
    await c.expect(/ 404 chan-user #general :Cannot send to channel \(join it first\)$/);
    await c.expect(/ 401 chan-user bob :No such nick\/channel/);
    c.send('TOPIC #nowhere', 'FROBNICATE x', 'PRIVMSG', 'PRIVMSG #general');
    await c.expect(/ 403 chan-user #nowhere :No such channel$/);
    await c.expect(/ 421 chan-user FROBNICATE :Unknown command$/);
    await c.expect(/ 411 chan-user :No recipient given \(PRIVMSG\)$/);
    await c.expect(/ 412 chan-user :No text to send$/);
    c.close();
  });

  it('queries and sets the shared topic (331, TOPIC, 332) as the connected agent', async () => {
    const { e, c } = await withUser();
    c.send('JOIN #project.cairn.irc', 'TOPIC #project.cairn.irc');
    await c.expect(/ 331 chan-user #project\.cairn\.irc :No topic is set$/);
    c.send('TOPIC #project.cairn.irc :ship the gateway');
    await c.expect(/^:chan-user!chan-user@cairn TOPIC #project\.cairn\.irc :ship the gateway$/);
    const channel = await e.core.backplane.channels.get('#project.cairn.irc');
    expect(channel).toMatchObject({ topic: 'ship the gateway', topicSetBy: 'chan-user' });
    c.send('LIST #project.cairn.irc');
    await c.expect(/ 322 chan-user #project\.cairn\.irc 1 :ship the gateway$/);
    await c.expect(/ 323 chan-user :End of \/LIST$/);
    c.send('WHO #project.cairn.irc', 'NAMES #project.cairn.irc', 'MODE #project.cairn.irc');
    await c.expect(/ 352 chan-user #project\.cairn\.irc chan-user cairn cairn\.irc chan-user H :0/);
    await c.expect(/ 315 chan-user #project\.cairn\.irc :End of WHO list$/);
    await c.expect(/ 324 chan-user #project\.cairn\.irc \+nt$/);
    c.close();
  });

  it('stores the authenticated nick as `from` whatever prefix the client sends', async () => {
    const { e, c } = await withUser();
    c.send('JOIN #general', ':operator!op@cairn PRIVMSG #general :i am the operator');
    await c.expect(/ 366 /);
    const [m] = await waitHistory(e, '#general', 1);
    expect(m?.envelope).toMatchObject({ type: 'text', from: 'chan-user', to: [] });
    expect(m?.envelope.payload).toEqual({ text: 'i am the operator' });
    c.close();
  });

  it('refuses an observer with 404 and the domain text', async () => {
    const { c } = await withUser('watcher', 'observer');
    c.send('JOIN #general', 'PRIVMSG #general :can I talk?');
    await c.expect(
      / 404 watcher #general :Cannot send to channel: observers cannot send messages$/,
    );
    c.close();
  });

  it('splits multi-line texts and shows oversized envelopes within 512 bytes', async () => {
    const { e, c } = await withUser();
    c.send('JOIN #general');
    await c.expect(/ 366 /);
    const op = { kind: 'operator' } as const;
    await e.core.backplane.send(op, {
      channel: '#general',
      type: 'text',
      payload: { text: 'line one\nline two' },
    });
    await e.core.backplane.send(op, {
      channel: '#general',
      type: 'task.update',
      payload: { log: 'é'.repeat(3000) },
    });
    await c.expect(/PRIVMSG #general :line one$/);
    await c.expect(/PRIVMSG #general :line two$/);
    const json = await c.expect(/PRIVMSG #general :\{"v":1,"type":"task\.update"/);
    const envelope = JSON.parse(json.slice(json.indexOf(' :') + 2)) as Record<string, unknown>;
    expect(envelope).toMatchObject({ truncated: true, payloadBytes: 6010 });
    const human = await c.expect(/NOTICE #general :task\.update: /);
    expect(human.endsWith('…')).toBe(true);
    for (const line of c.lines) expect(Buffer.byteLength(`${line}\r\n`)).toBeLessThanOrEqual(512);
    c.close();
  });

  it('tells channel members when someone quits', async () => {
    const { e, c } = await withUser();
    const b = await e.agent('leaver');
    const other = await loggedIn(e.port, 'leaver', b.password);
    c.send('JOIN #fleet');
    // In the channel before the leaver joins (its JOIN would otherwise race ours).
    await c.expect(/ 366 chan-user #fleet /);
    other.send('JOIN #fleet');
    await c.expect(/^:leaver!leaver@cairn JOIN #fleet$/);
    other.send('QUIT :see you');
    await other.expect(/^ERROR :Closing link: .*Quit: see you/);
    await c.expect(/^:leaver!leaver@cairn QUIT :Client quit$/);
    c.close();
  });
});

async function waitHistory(e: IrcEnv, channel: string, n: number) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const messages = await e.core.backplane.history({ channel, limit: 500 });
    if (messages.length >= n || Date.now() > deadline) return messages;
    await new Promise((r) => setTimeout(r, 20));
  }
}
