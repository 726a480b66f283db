// The command table and dispatcher: which commands an unregistered client may use (451 for
// the rest), 421 for unknown ones, and one catch so a handler failure never drops the server.
import { join, names, part, topic } from './channel-commands.js';
import type { Connection } from './connection.js';
import type { IrcContext } from './context.js';
import { notice, privmsg } from './messaging.js';
import type { IrcMessage } from './protocol.js';
import { list, mode, who, whois } from './query-commands.js';
import { authenticateCommand, cap, nick, pass, user } from './registration.js';

type Handler = (ctx: IrcContext, conn: Connection, params: string[]) => Promise<void> | void;

const ping: Handler = (ctx, conn, params) => {
  const token = params[0];
  if (token === undefined) return conn.reply('409', 'No origin specified');
  conn.send(ctx.serverName, 'PONG', [ctx.serverName, token]);
};

const quit: Handler = (_ctx, conn, params) => {
  conn.close(`Quit: ${(params[0] ?? '').slice(0, 200)}`);
};

/** Usable before registration. */
const OPEN: Record<string, Handler> = {
  CAP: cap,
  AUTHENTICATE: authenticateCommand,
  PASS: pass,
  NICK: nick,
  USER: user,
  PING: ping,
  PONG: () => undefined,
  QUIT: quit,
};

/** Registered (authenticated) clients only. */
const REGISTERED: Record<string, Handler> = {
  JOIN: join,
  PART: part,
  PRIVMSG: privmsg,
  NOTICE: notice,
  TOPIC: topic,
  NAMES: names,
  LIST: list,
  WHO: who,
  WHOIS: whois,
  MODE: mode,
  ISON: (ctx, conn, params) =>
    conn.reply('303', params.filter((n) => ctx.byNick.has(n.toLowerCase())).join(' ')),
  USERHOST: (_ctx, conn) => conn.reply('302', ''),
  AWAY: (_ctx, conn) => conn.reply('305', 'You are no longer marked as being away'),
  // Client-only tags (typing indicators) are not stored or relayed.
  TAGMSG: () => undefined,
};

/** Runs one parsed line for a connection. Never throws. */
export async function dispatch(ctx: IrcContext, conn: Connection, msg: IrcMessage): Promise<void> {
  const open = OPEN[msg.command];
  const registered = REGISTERED[msg.command];
  try {
    if (open !== undefined) await open(ctx, conn, msg.params);
    else if (registered === undefined) conn.reply('421', msg.command, 'Unknown command');
    else if (!conn.registered) conn.reply('451', 'You have not registered');
    else await registered(ctx, conn, msg.params);
  } catch (err) {
    ctx.logger.error({ err, command: msg.command }, 'irc command failed');
    conn.notice(`${msg.command}: internal error`);
  }
}
