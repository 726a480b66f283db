// The burst a client gets once registered: 001–005, a short MOTD that explains the mapping,
// then a JOIN for every channel the agent is a member of (register_agent's `channels`).
import { joinChannel } from './channel-commands.js';
import type { Connection } from './connection.js';
import { type IrcContext } from './context.js';
import { userMask } from './protocol.js';

const MOTD = [
  'Cairn IRC gateway: channels are the backplane channels; team rooms are #team.<teamId>.',
  'Your lines are stored as envelopes of type "text" sent by your nick.',
  'Other envelopes arrive as a PRIVMSG carrying the JSON envelope plus a short NOTICE.',
  'History and typed messages: the cairn-backplane MCP server or the REST /v1 API.',
];

/** RPL_ISUPPORT tokens. */
export function isupport(ctx: IrcContext): string[] {
  return [
    'CASEMAPPING=ascii',
    'CHANLIMIT=#:50',
    'CHANMODES=b,,,nt',
    'CHANNELLEN=100',
    'CHANTYPES=#',
    'NICKLEN=32',
    `NETWORK=${ctx.network}`,
    'PREFIX=()',
    'TOPICLEN=390',
    'MAXTARGETS=4',
  ];
}

/** Sends 001–005 and the MOTD, then joins the agent's channels. */
export async function welcome(ctx: IrcContext, conn: Connection): Promise<void> {
  const version = `cairn-${ctx.core.version}`;
  conn.reply(
    '001',
    `Welcome to the ${ctx.network} IRC gateway, ${userMask(conn.target, conn.username)}`,
  );
  conn.reply('002', `Your host is ${ctx.serverName}, running version ${version}`);
  conn.reply('003', `This server was created ${ctx.createdAt.toUTCString()}`);
  conn.reply('004', ctx.serverName, version, 'i', 'bnt');
  conn.reply('005', ...isupport(ctx), 'are supported by this server');
  conn.reply('375', `- ${ctx.serverName} Message of the day -`);
  for (const line of MOTD) conn.reply('372', `- ${line}`);
  conn.reply('376', 'End of /MOTD command.');
  const mine = (await ctx.core.backplane.channels.list()).filter((c) =>
    c.members.some((m) => m.toLowerCase() === conn.target.toLowerCase()),
  );
  for (const c of mine) await joinChannel(ctx, conn, c.name);
}
