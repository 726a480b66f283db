// PRIVMSG and NOTICE: a human's line becomes a `text` envelope in the channel's history, sent
// as the authenticated agent (the nick on the line is never taken from the client). Delivery
// to other IRC clients happens through the relay, from history, like every other message.
import { parseChannel } from '../backplane/index.js';
import { DomainError } from '../shared/index.js';
import type { Connection } from './connection.js';
import type { IrcContext } from './context.js';

/** Targets one PRIVMSG may name. */
const TARGETS_MAX = 4;

/** CTCP other than ACTION (VERSION, PING, …) is not stored. */
const isCtcpQuery = (text: string): boolean =>
  text.startsWith('\u0001') && !text.startsWith('\u0001ACTION ');

async function sayTo(
  ctx: IrcContext,
  conn: Connection,
  target: string,
  text: string,
  notice: boolean,
): Promise<void> {
  // RFC 2812: a NOTICE never gets an error reply.
  const fail = (numeric: string, ...rest: string[]): void => {
    if (!notice) conn.reply(numeric, ...rest);
  };
  if (!target.startsWith('#')) {
    return fail(
      '401',
      target,
      'No such nick/channel (private messages are not supported; use a channel such as #agent.<nick>)',
    );
  }
  const name = parseChannel(target)?.name;
  if (name === undefined) return fail('403', target, 'No such channel');
  if (!conn.channels.has(name)) return fail('404', name, 'Cannot send to channel (join it first)');
  const principal = conn.principal;
  if (principal === undefined) return fail('451', 'You have not registered');
  try {
    await ctx.core.backplane.send(principal, {
      channel: name,
      type: 'text',
      payload: notice ? { text, notice: true } : { text },
    });
  } catch (err) {
    if (err instanceof DomainError)
      return fail('404', name, `Cannot send to channel: ${err.message}`);
    throw err;
  }
}

async function say(
  ctx: IrcContext,
  conn: Connection,
  params: string[],
  notice: boolean,
): Promise<void> {
  const command = notice ? 'NOTICE' : 'PRIVMSG';
  const [targets, text] = params;
  if (targets === undefined || targets === '') {
    if (!notice) conn.reply('411', `No recipient given (${command})`);
    return;
  }
  if (text === undefined || text.trim() === '') {
    if (!notice) conn.reply('412', 'No text to send');
    return;
  }
  if (isCtcpQuery(text)) return;
  for (const target of targets.split(',').slice(0, TARGETS_MAX)) {
    if (target !== '') await sayTo(ctx, conn, target, text, notice);
  }
}

/** `PRIVMSG #chan :text`: stored as a `text` envelope `{ text }`. */
export const privmsg = (ctx: IrcContext, conn: Connection, params: string[]): Promise<void> =>
  say(ctx, conn, params, false);

/** `NOTICE #chan :text`: stored as a `text` envelope `{ text, notice: true }`; never answered. */
export const notice = (ctx: IrcContext, conn: Connection, params: string[]): Promise<void> =>
  say(ctx, conn, params, true);
