// JOIN, PART, TOPIC and NAMES over backplane channels. A JOIN makes the agent a member (the
// room roster) and starts delivery; PART ends both. Team rooms are the `#team.<teamId>`
// channels. Domain refusals become the numeric a client expects, with the domain's text.
import { type Channel, CHANNEL_RULE, parseChannel } from '../backplane/index.js';
import { DomainError } from '../shared/index.js';
import type { Connection } from './connection.js';
import type { IrcContext } from './context.js';
import { formatLine, LINE_MAX_BYTES } from './protocol.js';

/** Channels one connection may be in at once. */
export const CHANNELS_PER_CONNECTION = 50;

/** Sends a line to every registered connection that has joined `channel`. */
export function toChannel(
  ctx: IrcContext,
  channel: string,
  prefix: string,
  command: string,
  params: string[],
): void {
  for (const conn of ctx.byNick.values()) {
    if (conn.channels.has(channel)) conn.send(prefix, command, params);
  }
}

/** 353 lines (as many as the names need) and 366. */
export function sendNames(ctx: IrcContext, conn: Connection, channel: Channel): void {
  const head = formatLine(ctx.serverName, '353', [conn.target, '=', channel.name, 'x']);
  const budget = LINE_MAX_BYTES - 2 - head.length;
  const names = [...new Set([...channel.members, ...localMembers(ctx, channel.name)])].sort();
  let line: string[] = [];
  for (const name of names) {
    if ([...line, name].join(' ').length > budget && line.length > 0) {
      conn.reply('353', '=', channel.name, line.join(' '));
      line = [];
    }
    line.push(name);
  }
  if (line.length > 0) conn.reply('353', '=', channel.name, line.join(' '));
  conn.reply('366', channel.name, 'End of /NAMES list');
}

function localMembers(ctx: IrcContext, channel: string): string[] {
  return [...ctx.byNick.values()].filter((c) => c.channels.has(channel)).map((c) => c.target);
}

function sendTopic(ctx: IrcContext, conn: Connection, channel: Channel, query: boolean): void {
  if (channel.topic === '') {
    if (query) conn.reply('331', channel.name, 'No topic is set');
    return;
  }
  conn.reply('332', channel.name, channel.topic);
  if (channel.topicSetBy === null || channel.topicSetAt === null) return;
  const at = String(Math.floor(channel.topicSetAt / 1000));
  conn.reply('333', channel.name, channel.topicSetBy, at);
}

/** Joins `raw` for this connection: membership, delivery from now on, topic and names. */
export async function joinChannel(ctx: IrcContext, conn: Connection, raw: string): Promise<void> {
  const parsed = parseChannel(raw);
  if (parsed === undefined) return conn.reply('403', raw, `No such channel (${CHANNEL_RULE})`);
  if (conn.channels.has(parsed.name)) return;
  if (conn.channels.size >= CHANNELS_PER_CONNECTION) {
    return conn.reply('405', parsed.name, 'You have joined too many channels');
  }
  const bp = ctx.core.backplane;
  let channel: Channel;
  try {
    channel = await bp.channels.join(parsed.name, conn.target);
  } catch (err) {
    if (err instanceof DomainError) return conn.reply('403', parsed.name, err.message);
    throw err;
  }
  conn.channels.set(channel.name, { since: await bp.cursor(channel.name) });
  ctx.relay.add(channel.name, conn);
  toChannel(ctx, channel.name, conn.mask, 'JOIN', [channel.name]);
  sendTopic(ctx, conn, channel, false);
  sendNames(ctx, conn, { ...channel, members: [...channel.members, conn.target] });
}

/** Leaves `name` on this connection only (no roster change): used on PART and QUIT. */
export function leaveLocally(ctx: IrcContext, conn: Connection, name: string): void {
  conn.channels.delete(name);
  ctx.relay.remove(name, conn);
}

/** `JOIN #a,#b` (keys ignored) or `JOIN 0` (part everything). */
export async function join(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> {
  const list = params[0];
  if (list === undefined) return conn.reply('461', 'JOIN', 'Not enough parameters');
  if (list === '0') {
    for (const name of [...conn.channels.keys()])
      await partOne(ctx, conn, name, 'Left all channels');
    return;
  }
  for (const raw of list.split(',').slice(0, 10)) {
    if (raw !== '') await joinChannel(ctx, conn, raw);
  }
}

async function partOne(
  ctx: IrcContext,
  conn: Connection,
  raw: string,
  reason: string,
): Promise<void> {
  const name = parseChannel(raw)?.name;
  if (name === undefined) return conn.reply('403', raw, 'No such channel');
  if (!conn.channels.has(name)) return conn.reply('442', name, "You're not on that channel");
  toChannel(ctx, name, conn.mask, 'PART', reason === '' ? [name] : [name, reason]);
  leaveLocally(ctx, conn, name);
  await ctx.core.backplane.channels.part(name, conn.target);
}

/** `PART #a,#b [:reason]`: leaves the channels and the rosters. */
export async function part(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> {
  const list = params[0];
  if (list === undefined) return conn.reply('461', 'PART', 'Not enough parameters');
  for (const raw of list.split(',').slice(0, 10)) {
    if (raw !== '') await partOne(ctx, conn, raw, params[1] ?? '');
  }
}

async function existing(ctx: IrcContext, conn: Connection, raw: string) {
  try {
    return await ctx.core.backplane.channels.get(raw);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    conn.reply('403', raw, 'No such channel');
    return undefined;
  }
}

/** `TOPIC #chan` (query: 331 or 332/333) or `TOPIC #chan :text` (set; members only). */
export async function topic(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> {
  const [raw, text] = params;
  if (raw === undefined) return conn.reply('461', 'TOPIC', 'Not enough parameters');
  const channel = await existing(ctx, conn, raw);
  if (channel === undefined) return;
  if (text === undefined) return sendTopic(ctx, conn, channel, true);
  if (!conn.channels.has(channel.name)) {
    return conn.reply('442', channel.name, "You're not on that channel");
  }
  try {
    await ctx.core.backplane.channels.setTopic(channel.name, text, conn.target);
  } catch (err) {
    if (err instanceof DomainError) return conn.notice(`TOPIC ${channel.name}: ${err.message}`);
    throw err;
  }
  toChannel(ctx, channel.name, conn.mask, 'TOPIC', [channel.name, text]);
}

/** `NAMES [#a,#b]`. */
export async function names(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> {
  const list = params[0];
  if (list === undefined) return conn.reply('366', '*', 'End of /NAMES list');
  for (const raw of list.split(',').slice(0, 10)) {
    const channel = await existing(ctx, conn, raw);
    if (channel !== undefined) sendNames(ctx, conn, channel);
  }
}
