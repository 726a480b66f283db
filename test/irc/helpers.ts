// IRC test helpers: a core on a fresh database with a gateway on a random loopback port,
// agents registered through the domain, a raw line-based socket client and irc-framework
// clients that log in with SASL. Nothing here asserts.
import { connect, type Socket } from 'node:net';

import { Client as IrcClient, type ClientOptions } from 'irc-framework';

import type { Core, CoreOptions } from '../../src/core/index.js';
import { createIrcGateway, type IrcGateway, type IrcGatewayOptions } from '../../src/irc/index.js';
import { tempCore } from '../helpers.js';

export const WAIT_MS = 5000;

export interface IrcEnv {
  core: Core;
  gateway: IrcGateway;
  port: number;
  /** Registers an agent (by the operator) and returns its password. */
  agent(
    nick: string,
    opts?: { type?: 'worker' | 'orchestrator' | 'observer'; channels?: string[] },
  ): Promise<{ nick: string; password: string; token: string }>;
  close(): Promise<void>;
}

/** Opens a core and a gateway; call `close` in afterEach. */
export async function ircEnv(
  options: IrcGatewayOptions = {},
  coreOptions: CoreOptions = {},
): Promise<IrcEnv> {
  const t = await tempCore({ embedder: null, ...coreOptions });
  const gateway = createIrcGateway(t.core, { port: 0, ...options });
  const { port } = await gateway.listen();
  const clients: { close(): void }[] = [];
  return {
    core: t.core,
    gateway,
    port,
    async agent(nick, opts = {}) {
      const creds = await t.core.backplane.register(
        { kind: 'operator' },
        { nick, type: opts.type, channels: opts.channels },
      );
      return { nick: creds.nick, password: creds.password, token: creds.token };
    },
    async close() {
      for (const c of clients) c.close();
      await gateway.close();
      await t.close();
    },
  };
}

/** Resolves once `check` is true, polling every 10 ms; rejects with `what` after `ms`. */
export async function until(check: () => boolean, what: string, ms = WAIT_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Polls `get` every 20 ms until `ok` accepts its value; returns that value. */
export async function eventually<T>(
  get: () => Promise<T>,
  ok: (value: T) => boolean,
  what: string,
  ms = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await get();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw IRC client: writes lines, collects every line the server sends. */
export interface RawClient {
  socket: Socket;
  lines: string[];
  closed: () => boolean;
  send(...lines: string[]): void;
  /** Waits for a line matching `re` (already received or future); returns it. */
  expect(re: RegExp, ms?: number): Promise<string>;
  close(): void;
}

export async function rawClient(port: number): Promise<RawClient> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const lines: string[] = [];
  let buffer = '';
  let isClosed = false;
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\r\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    isClosed = true;
  });
  return {
    socket,
    lines,
    closed: () => isClosed,
    send: (...ls) => void socket.write(ls.map((l) => `${l}\r\n`).join('')),
    async expect(re, ms = WAIT_MS) {
      let found: string | undefined;
      await until(() => (found = lines.find((l) => re.test(l))) !== undefined, String(re), ms);
      return found ?? '';
    },
    close: () => socket.destroy(),
  };
}

/** A raw client that logged in with PASS nick:password and got 001. */
export async function loggedIn(port: number, nick: string, password: string): Promise<RawClient> {
  const c = await rawClient(port);
  c.send(`PASS ${nick}:${password}`, `NICK ${nick}`, `USER ${nick} 0 * :${nick}`);
  await c.expect(/ 376 /);
  return c;
}

/** An irc-framework client logged in with SASL PLAIN; resolves once registered. */
export async function frameworkClient(
  port: number,
  nick: string,
  password: string,
  extra: Partial<ClientOptions> = {},
): Promise<IrcClient> {
  const client = new IrcClient();
  const registered = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${nick} did not register`)), WAIT_MS);
    client.once('registered', () => (clearTimeout(timer), resolve()));
  });
  client.connect({
    host: '127.0.0.1',
    port,
    nick,
    username: nick,
    gecos: nick,
    account: { account: nick, password },
    auto_reconnect: false,
    ...extra,
  });
  await registered;
  return client;
}

/** Joins a channel with irc-framework and waits for the server's JOIN echo. */
export function joined(client: IrcClient, channel: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no JOIN ${channel}`)), WAIT_MS);
    const onJoin = (e: { channel: string; nick: string }): void => {
      if (e.channel.toLowerCase() !== channel.toLowerCase() || e.nick !== client.user.nick) return;
      clearTimeout(timer);
      client.off('join', onJoin);
      resolve();
    };
    client.on('join', onJoin);
    client.join(channel);
  });
}
