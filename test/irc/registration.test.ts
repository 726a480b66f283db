// Registration over a raw socket: the numerics clients expect (CAP, SASL 900/903/904/906/908,
// 001–005, 464, 433, 451), PASS in both accepted forms, and the timeout for idle strangers.
import { afterEach, describe, expect, it } from 'vitest';

import { type IrcEnv, ircEnv, loggedIn, rawClient, until } from './helpers.js';

let env: IrcEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function open(options: Parameters<typeof ircEnv>[0] = {}): Promise<IrcEnv> {
  env = await ircEnv(options);
  return env;
}

const plain = (user: string, password: string): string =>
  Buffer.from(`${user}\0${user}\0${password}`).toString('base64');

const numerics = (lines: string[]): string[] =>
  lines.map((l) => /^:\S+ (\d{3}) /.exec(l)?.[1]).filter((n) => n !== undefined);

describe('IRC registration', () => {
  it('negotiates CAP, logs in with SASL PLAIN and sends 001–005 then the MOTD', async () => {
    const e = await open();
    const a = await e.agent('sasl-user');
    const c = await rawClient(e.port);
    c.send('CAP LS 302', 'NICK sasl-user', 'USER su 0 * :Sasl User');
    expect(await c.expect(/ CAP \* LS /)).toBe(
      ':cairn.irc CAP * LS :sasl=PLAIN message-tags server-time',
    );
    c.send('CAP REQ :sasl server-time');
    await c.expect(/ CAP sasl-user ACK :sasl server-time$/);
    c.send('AUTHENTICATE PLAIN');
    expect(await c.expect(/^AUTHENTICATE/)).toBe('AUTHENTICATE +');
    c.send(`AUTHENTICATE ${plain('sasl-user', a.password)}`);
    expect(await c.expect(/ 900 /)).toBe(
      ':cairn.irc 900 sasl-user sasl-user!su@cairn sasl-user :You are now logged in as sasl-user',
    );
    await c.expect(/ 903 sasl-user :SASL authentication successful/);
    expect(c.lines.some((l) => / 001 /.test(l))).toBe(false); // still negotiating
    c.send('CAP END');
    await c.expect(/ 376 /);
    expect(numerics(c.lines)).toEqual([
      ...['900', '903', '001', '002', '003', '004', '005', '375'],
      ...['372', '372', '372', '372', '376'],
    ]);
    expect(await c.expect(/ 005 /)).toMatch(/CHANTYPES=# .*NETWORK=Cairn/);
    c.close();
  });

  it('answers CAP REQ for an unknown capability with NAK and lists enabled ones', async () => {
    const e = await open();
    const c = await rawClient(e.port);
    c.send('CAP LS', 'CAP REQ :sasl multi-prefix', 'CAP REQ message-tags', 'CAP LIST');
    await c.expect(/ CAP \* LS :sasl message-tags server-time$/);
    await c.expect(/ CAP \* NAK :sasl multi-prefix$/);
    await c.expect(/ CAP \* LIST :message-tags$/);
    c.close();
  });

  it('refuses a wrong SASL password with 904, aborts with 906, names PLAIN with 908', async () => {
    const e = await open();
    await e.agent('victim');
    const c = await rawClient(e.port);
    c.send('CAP LS 302', 'AUTHENTICATE PLAIN');
    await c.expect(/^AUTHENTICATE \+$/);
    c.send(`AUTHENTICATE ${plain('victim', 'not-the-password')}`);
    await c.expect(/ 904 \* :SASL authentication failed$/);
    c.send('AUTHENTICATE PLAIN', 'AUTHENTICATE *');
    await c.expect(/ 906 \* :SASL authentication aborted$/);
    c.send('AUTHENTICATE SCRAM-SHA-256');
    await c.expect(/ 908 \* PLAIN :are available SASL mechanisms$/);
    // Three failures close the connection.
    c.send('AUTHENTICATE PLAIN', 'AUTHENTICATE bm9wZQ==');
    await c.expect(/^ERROR :Closing link: .*Too many authentication failures/);
    await until(c.closed, 'the socket to close');
  });

  it('accepts PASS <nick>:<password> and PASS <password> with NICK', async () => {
    const e = await open();
    const a = await e.agent('pass-one');
    const b = await e.agent('pass-two');
    const one = await loggedIn(e.port, 'pass-one', a.password);
    expect(await one.expect(/ 001 /)).toMatch(/^:cairn\.irc 001 pass-one :Welcome/);
    const two = await rawClient(e.port);
    two.send(`PASS ${b.password}`, 'NICK pass-two', 'USER x 0 * :x');
    await two.expect(/ 001 pass-two /);
    one.close();
    two.close();
  });

  it('answers a wrong PASS with 464 and closes the link', async () => {
    const e = await open();
    await e.agent('pass-bad');
    const c = await rawClient(e.port);
    c.send('PASS pass-bad:wrong-password', 'NICK pass-bad', 'USER x 0 * :x');
    expect(await c.expect(/ 464 /)).toBe(':cairn.irc 464 pass-bad :Password incorrect');
    await c.expect(/^ERROR :Closing link: .*Bad password/);
    await until(c.closed, 'the socket to close');
    expect(c.lines.some((l) => / 001 /.test(l))).toBe(false);
  });

  it('answers 433 for a nick another connection holds, and for a second login', async () => {
    const e = await open();
    const a = await e.agent('taken');
    const first = await loggedIn(e.port, 'taken', a.password);
    const other = await rawClient(e.port);
    other.send('NICK taken');
    expect(await other.expect(/ 433 /)).toBe(':cairn.irc 433 * taken :Nickname is already in use');
    const again = await rawClient(e.port);
    again.send(`PASS taken:${a.password}`, 'NICK somebody', 'USER x 0 * :x');
    await again.expect(/ 433 somebody taken :Nickname is already in use/);
    await until(again.closed, 'the second login to be closed');
    first.close();
    other.close();
  });

  it('refuses JOIN, PRIVMSG and the rest with 451 until authenticated', async () => {
    const e = await open();
    const c = await rawClient(e.port);
    c.send('JOIN #general', 'PRIVMSG #general :sneaky', 'NICK stranger', 'USER s 0 * :s');
    await c.expect(/ 451 \* :You have not registered$/);
    await c.expect(/NOTICE stranger :This server needs credentials/);
    c.send('LIST', 'PING :still-here');
    await c.expect(/ 451 stranger :You have not registered$/);
    await c.expect(/ PONG cairn\.irc :still-here$/);
    expect(await e.core.backplane.history({ channel: '#general' })).toEqual([]);
    c.close();
  });

  it('lets an unauthenticated client finish with a late PASS', async () => {
    const e = await open();
    const a = await e.agent('late');
    const c = await rawClient(e.port);
    c.send('NICK late', 'USER l 0 * :l');
    await c.expect(/NOTICE late :This server needs credentials/);
    c.send(`PASS ${a.password}`, 'NICK late');
    await c.expect(/ 001 late /);
    c.close();
  });

  it('closes connections that never register', async () => {
    const e = await open({ registrationMs: 150 });
    const c = await rawClient(e.port);
    c.send('NICK idle');
    await c.expect(/^ERROR :Closing link: .*Registration timed out/);
    await until(c.closed, 'the socket to close');
  });

  it('pings idle clients and drops those that never answer', async () => {
    const e = await open({ pingMs: 100 });
    const a = await e.agent('sleepy');
    const c = await loggedIn(e.port, 'sleepy', a.password);
    await c.expect(/^PING :cairn\.irc$/);
    await c.expect(/^ERROR :Closing link: .*Ping timeout/, 2000);
  });

  it('joins the channels given at registration on connect', async () => {
    const e = await open();
    const a = await e.agent('member', { channels: ['#fleet', '#project.cairn.irc'] });
    const c = await loggedIn(e.port, 'member', a.password);
    await c.expect(/^:member!member@cairn JOIN #fleet$/);
    await c.expect(/^:member!member@cairn JOIN #project\.cairn\.irc$/);
    c.close();
  });
});
