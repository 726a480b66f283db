// The gateway under stress: garbage and oversized lines (417, no crash), CRLF/LF/CR endings,
// flood control (pacing with a NOTICE, then Excess Flood), 100 messages from 4 irc-framework
// connections landing complete and in per-connection order, and IRC over TLS.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Client as IrcClient } from 'irc-framework';
import { afterEach, describe, expect, it } from 'vitest';

import { tempDir } from '../helpers.js';
import {
  eventually,
  frameworkClient,
  type IrcEnv,
  ircEnv,
  joined,
  loggedIn,
  rawClient,
  until,
} from './helpers.js';

let env: IrcEnv | undefined;
const clients: IrcClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.quit();
  await env?.close();
  env = undefined;
});

async function open(options: Parameters<typeof ircEnv>[0] = {}): Promise<IrcEnv> {
  env = await ircEnv(options);
  return env;
}

describe('IRC robustness', () => {
  it('survives garbage, binary and oversized lines, and keeps serving', async () => {
    const e = await open();
    const a = await e.agent('sturdy');
    const c = await loggedIn(e.port, 'sturdy', a.password);
    c.socket.write(Buffer.from([0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x80, 0x81, 0x0a]));
    c.socket.write(':::\r\n@@@\r\n@a=b\r\n:\r\n   \r\n\0\0\0\r\n12\r\n@;;; :x PING\r\n');
    c.socket.write(`PRIVMSG #general :${'x'.repeat(10_000)}\r\n`);
    c.socket.write(`${'y'.repeat(70_000)}`); // never ends its line
    c.socket.write('\nPING :one\rPING :two\nPING :three\r\n');
    await c.expect(/ 417 sturdy :Input line was too long$/);
    await c.expect(/ PONG cairn\.irc :one$/);
    await c.expect(/ PONG cairn\.irc :two$/);
    await c.expect(/ PONG cairn\.irc :three$/);
    expect(c.closed()).toBe(false);
    const fresh = await loggedIn(e.port, 'other', (await e.agent('other')).password);
    fresh.send('PING :alive');
    await fresh.expect(/ PONG cairn\.irc :alive$/);
    c.close();
    fresh.close();
  });

  it('paces a burst past the bucket with a NOTICE and loses nothing', async () => {
    // 10 lines/s: slower than the store takes a line on either backend, so the bucket empties.
    const e = await open({ flood: { burst: 5, perSecond: 10 } });
    const a = await e.agent('bursty');
    const c = await loggedIn(e.port, 'bursty', a.password);
    c.send('JOIN #general', ...Array.from({ length: 30 }, (_, i) => `PRIVMSG #general :b${i}`));
    await c.expect(/NOTICE bursty :flood control: slowing down/);
    const messages = await eventually(
      () => e.core.backplane.history({ channel: '#general', limit: 100 }),
      (m) => m.length >= 30,
      '30 messages',
    );
    expect(messages.map((m) => m.envelope.payload['text'])).toEqual(
      Array.from({ length: 30 }, (_, i) => `b${i}`),
    );
    c.close();
  });

  it('disconnects a client whose backlog passes the cap (Excess Flood)', async () => {
    const e = await open({ flood: { burst: 5, perSecond: 5, maxBacklog: 50 } });
    const a = await e.agent('flooder');
    const c = await loggedIn(e.port, 'flooder', a.password);
    c.send(...Array.from({ length: 500 }, (_, i) => `PING :${i}`));
    await c.expect(/^ERROR :Closing link: .*Excess Flood/);
    await until(c.closed, 'the flooder to be dropped');
    const d = await rawClient(e.port);
    d.send('PING :still-up');
    await d.expect(/ PONG cairn\.irc :still-up$/);
    d.close();
  });

  it('stores 100 messages from 4 connections, complete and in order per connection', async () => {
    const e = await open();
    const nicks = ['load-a', 'load-b', 'load-c', 'load-d'];
    const conns = await Promise.all(
      nicks.map(async (nick) => {
        const creds = await e.agent(nick);
        const client = await frameworkClient(e.port, nick, creds.password);
        clients.push(client);
        await joined(client, '#general');
        return { nick, client };
      }),
    );
    for (let i = 0; i < 25; i++)
      for (const { nick, client } of conns) client.say('#general', `${nick} ${i}`);
    const messages = await eventually(
      () => e.core.backplane.history({ channel: '#general', limit: 500 }),
      (m) => m.length >= 100,
      '100 messages',
      20_000,
    );
    expect(messages).toHaveLength(100);
    expect(new Set(messages.map((m) => m.envelope.id)).size).toBe(100);
    for (const nick of nicks) {
      const mine = messages.filter((m) => m.envelope.from === nick);
      expect(mine.map((m) => m.envelope.payload['text'])).toEqual(
        Array.from({ length: 25 }, (_, i) => `${nick} ${i}`),
      );
    }
    const seqs = messages.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
  });

  it('serves IRC over TLS', async () => {
    const dir = tempDir('cairn-irc-tls-');
    try {
      const key = join(dir.path, 'key.pem');
      const cert = join(dir.path, 'cert.pem');
      execFileSync(
        'openssl',
        [
          ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1'],
          ...['-subj', '/CN=localhost', '-keyout', key, '-out', cert],
        ],
        { stdio: 'ignore' },
      );
      const e = await open({ tls: { cert: readFileSync(cert), key: readFileSync(key) } });
      const a = await e.agent('secure');
      const client = await frameworkClient(e.port, 'secure', a.password, {
        tls: true,
        rejectUnauthorized: false,
      });
      clients.push(client);
      expect(client.user.nick).toBe('secure');
    } finally {
      dir.cleanup();
    }
  });
});
