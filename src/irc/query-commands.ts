// LIST, WHO, WHOIS and MODE: read-only views of channels and agents, in the numerics clients
// parse. Channel modes are fixed (+nt); nothing here changes state.
import { isValidNick, parseChannel } from '../backplane/index.js';
import { DomainError } from '../shared/index.js';
import type { Connection } from './connection.js';
import { type IrcContext, nickKey } from './context.js';

/** `LIST [#a,#b]`: 321, one 322 per live channel, 323. */
export async function list(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> {
  const wanted = params[0]
    ?.split(',')
    .map((c) => parseChannel(c)?.name)
    .filter((c) => c !== undefined);
  const channels = await ctx.core.backplane.channels.list();
  conn.reply('321', 'Channel', 'Users  Name');
  for (const c of channels) {
    if (wanted !== undefined && wanted.length > 0 && !wanted.includes(c.name)) continue;
    conn.reply('322', c.name, String(c.members.length), c.topic);
  }
  conn.reply('323', 'End of /LIST');
}

/** One 352 line: `<channel> <user> <host> <server> <nick> <H|G> :0 <realname>`. */
function whoLine(ctx: IrcContext, conn: Connection, channel: string, nick: string, real: string) {
  const here = ctx.byNick.get(nickKey(nick));
  const flags = here === undefined ? 'G' : 'H';
  const user = here?.username ?? nick;
  conn.reply('352', channel, user, 'cairn', ctx.serverName, nick, flags, `0 ${real}`);
}

async function agentType(ctx: IrcContext, nick: string): Promise<string | undefined> {
  try {
    return (await ctx.core.backplane.agents.get(nick)).type;
  } catch (err) {
    if (err instanceof DomainError) return undefined;
    throw err;
  }
}

/** `WHO #chan` (its members; H = connected over IRC here, G = not) or `WHO nick`. */
export async function who(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> {
  const mask = params[0] ?? '*';
  const parsed = parseChannel(mask);
  if (parsed !== undefined) {
    try {
      const channel = await ctx.core.backplane.channels.get(parsed.name);
      for (const m of channel.members) whoLine(ctx, conn, channel.name, m, m);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    }
  } else if (isValidNick(mask)) {
    const type = await agentType(ctx, mask);
    if (type !== undefined) whoLine(ctx, conn, '*', mask, type);
  }
  conn.reply('315', mask, 'End of WHO list');
}

/** `WHOIS nick`: 311/312/330/318 for a registered agent, 401/318 otherwise. */
export async function whois(ctx: IrcContext, conn: Connection, params: string[]): Promise<void> {
  const nick = params.at(-1);
  if (nick === undefined) return conn.reply('431', 'No nickname given');
  const type = isValidNick(nick) ? await agentType(ctx, nick) : undefined;
  if (type === undefined) {
    conn.reply('401', nick, 'No such nick/channel');
  } else {
    const here = ctx.byNick.get(nickKey(nick));
    conn.reply('311', nick, here?.username ?? nick, 'cairn', '*', `${type} agent`);
    conn.reply('312', nick, ctx.serverName, here === undefined ? 'not on IRC' : 'Cairn gateway');
    conn.reply('330', nick, nick, 'is logged in as');
  }
  conn.reply('318', nick, 'End of /WHOIS list');
}

/** `MODE`: channels are always +nt and users +i; changes are refused or ignored. */
export function mode(ctx: IrcContext, conn: Connection, params: string[]): void {
  const target = params[0];
  if (target === undefined) return conn.reply('461', 'MODE', 'Not enough parameters');
  if (!target.startsWith('#')) {
    if (nickKey(target) !== nickKey(conn.target)) {
      return conn.reply('502', "Can't change mode for other users");
    }
    return conn.reply('221', '+i');
  }
  const name = parseChannel(target)?.name;
  if (name === undefined) return conn.reply('403', target, 'No such channel');
  const change = params[1];
  if (change === undefined) return conn.reply('324', name, '+nt');
  if (/^[+-]?b$/.test(change)) return conn.reply('368', name, 'End of channel ban list');
  conn.reply('482', name, "You're not channel operator (modes are fixed: +nt)");
}
