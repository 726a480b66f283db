// Connection registration: CAP negotiation (sasl, message-tags, server-time), SASL PLAIN,
// PASS, NICK, USER, and the welcome burst. Nobody registers without valid credentials; the
// registered nick is always the authenticated agent's, whatever NICK said.
import { isValidNick } from '../backplane/index.js';
import type { Connection } from './connection.js';
import { authenticate, type IrcContext, nickKey } from './context.js';
import { decodeSaslPlain, userMask } from './protocol.js';
import { welcome } from './welcome.js';

export const SUPPORTED_CAPS = ['sasl', 'message-tags', 'server-time'] as const;
const SASL_CHUNK = 400;
const SASL_MAX = 2048;
const AUTH_FAILURES_MAX = 3;

/** `CAP LS|REQ|END|LIST`. */
export function cap(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> | void {
  const sub = (params[0] ?? '').toUpperCase();
  const send = (...rest: string[]): void =>
    conn.send(ctx.serverName, 'CAP', [conn.target, ...rest]);
  if (sub === 'LS') {
    if (!conn.registered) conn.capNegotiating = true;
    const v302 = Number(params[1] ?? '0') >= 302;
    send('LS', SUPPORTED_CAPS.map((c) => (c === 'sasl' && v302 ? 'sasl=PLAIN' : c)).join(' '));
  } else if (sub === 'REQ') {
    if (!conn.registered) conn.capNegotiating = true;
    const asked = (params[1] ?? '').split(' ').filter((c) => c !== '');
    const known = (c: string): boolean =>
      (SUPPORTED_CAPS as readonly string[]).includes(c.replace(/^-/, ''));
    if (asked.length === 0 || !asked.every(known)) {
      send('NAK', params[1] ?? '');
      return;
    }
    for (const c of asked) {
      if (c.startsWith('-')) conn.caps.delete(c.slice(1));
      else conn.caps.add(c);
    }
    send('ACK', asked.join(' '));
  } else if (sub === 'LIST') {
    send('LIST', [...conn.caps].join(' '));
  } else if (sub === 'END') {
    conn.capNegotiating = false;
    return tryRegister(ctx, conn);
  } else {
    conn.reply('410', sub, 'Invalid CAP command');
  }
}

function saslFailed(conn: Connection, numeric = '904'): void {
  conn.saslBuffer = undefined;
  conn.saslFailures++;
  conn.reply(numeric, numeric === '905' ? 'SASL message too long' : 'SASL authentication failed');
  if (conn.saslFailures >= AUTH_FAILURES_MAX) conn.close('Too many authentication failures');
}

async function saslComplete(ctx: IrcContext, conn: Connection, data: string): Promise<void> {
  conn.saslBuffer = undefined;
  const plain = decodeSaslPlain(data);
  if (plain === undefined) return saslFailed(conn);
  if (plain.authzid !== '' && nickKey(plain.authzid) !== nickKey(plain.authcid)) {
    return saslFailed(conn);
  }
  const principal = await authenticate(ctx.core, plain.authcid, plain.password);
  if (principal === undefined) return saslFailed(conn);
  conn.principal = principal;
  const mask = userMask(conn.nick ?? principal.nick, conn.username);
  conn.reply('900', mask, principal.nick, `You are now logged in as ${principal.nick}`);
  conn.reply('903', 'SASL authentication successful');
}

/** `AUTHENTICATE PLAIN`, then the base64 response in 400-byte chunks, or `*` to abort. */
export function authenticateCommand(
  ctx: IrcContext,
  conn: Connection,
  params: string[],
): Promise<void> | void {
  const arg = params[0];
  if (arg === undefined) return conn.reply('461', 'AUTHENTICATE', 'Not enough parameters');
  if (conn.principal !== undefined) {
    return conn.reply('907', 'You have already authenticated using SASL');
  }
  if (arg === '*') {
    conn.saslBuffer = undefined;
    return conn.reply('906', 'SASL authentication aborted');
  }
  if (conn.saslBuffer === undefined) {
    if (arg.toUpperCase() !== 'PLAIN') {
      conn.reply('908', 'PLAIN', 'are available SASL mechanisms');
      return saslFailed(conn);
    }
    conn.saslBuffer = '';
    return conn.send(undefined, 'AUTHENTICATE', ['+']);
  }
  if (arg.length > SASL_CHUNK) return saslFailed(conn, '905');
  const data = conn.saslBuffer + (arg === '+' ? '' : arg);
  if (data.length > SASL_MAX) return saslFailed(conn, '905');
  if (arg.length === SASL_CHUNK) {
    conn.saslBuffer = data;
    return;
  }
  return saslComplete(ctx, conn, data);
}

/** `PASS <password>` (with NICK naming the agent) or `PASS <nick>:<password>`. */
export function pass(_ctx: IrcContext, conn: Connection, params: string[]): void {
  if (conn.registered) return conn.reply('462', 'You may not reregister');
  if (params[0] === undefined) return conn.reply('461', 'PASS', 'Not enough parameters');
  conn.pass = params[0];
}

/** `NICK <nick>`: before registration, the nick to use; afterwards only the account's own. */
export function nick(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> | void {
  const wanted = params[0];
  if (wanted === undefined || wanted === '') return conn.reply('431', 'No nickname given');
  if (!isValidNick(wanted)) return conn.reply('432', wanted, 'Erroneous nickname');
  const holder = ctx.byNick.get(nickKey(wanted));
  if (conn.registered) {
    if (holder === conn) return;
    const why = `Your nick is bound to your account (${conn.nick ?? ''})`;
    return conn.reply(holder === undefined ? '432' : '433', wanted, why);
  }
  if (holder !== undefined && holder !== conn) {
    return conn.reply('433', wanted, 'Nickname is already in use');
  }
  conn.nick = wanted;
  return tryRegister(ctx, conn);
}

/** `USER <username> <mode> <unused> :<realname>` (lenient: only the username is required). */
export function user(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> | void {
  if (conn.registered) return conn.reply('462', 'You may not reregister');
  const name = params[0];
  if (name === undefined) return conn.reply('461', 'USER', 'Not enough parameters');
  conn.username = name.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 32) || 'user';
  conn.realname = params[3] ?? params.at(-1) ?? '';
  return tryRegister(ctx, conn);
}

/** Resolves PASS into a principal; on a wrong password answers 464 and closes. */
async function checkPass(ctx: IrcContext, conn: Connection): Promise<boolean> {
  const raw = conn.pass ?? '';
  conn.pass = undefined;
  const colon = raw.indexOf(':');
  const named = colon > 0 && isValidNick(raw.slice(0, colon));
  const account = named ? raw.slice(0, colon) : (conn.nick ?? '');
  const principal = await authenticate(ctx.core, account, named ? raw.slice(colon + 1) : raw);
  if (principal === undefined) {
    conn.reply('464', 'Password incorrect');
    conn.close('Bad password');
    return false;
  }
  conn.principal = principal;
  return true;
}

/** Completes registration once NICK and USER are in, CAP is done and credentials check out. */
export async function tryRegister(ctx: IrcContext, conn: Connection): Promise<void> {
  if (conn.registered || conn.capNegotiating || conn.isClosed) return;
  if (conn.nick === undefined || conn.username === undefined) return;
  if (conn.principal === undefined && conn.pass !== undefined && !(await checkPass(ctx, conn))) {
    return;
  }
  const principal = conn.principal;
  if (principal === undefined) {
    conn.notice(
      'This server needs credentials: SASL PLAIN with the nick and password register_agent returned, or PASS <nick>:<password> (or PASS <password> with NICK <nick>). Send PASS now to continue.',
    );
    return;
  }
  const holder = ctx.byNick.get(nickKey(principal.nick));
  if (holder !== undefined && holder !== conn) {
    conn.reply('433', principal.nick, 'Nickname is already in use');
    conn.close('Nickname is already in use (the agent is connected elsewhere)');
    return;
  }
  conn.nick = principal.nick;
  conn.registered = true;
  ctx.byNick.set(nickKey(principal.nick), conn);
  conn.releasePresence = ctx.core.backplane.agents.markConnected(principal.nick);
  await welcome(ctx, conn);
}
