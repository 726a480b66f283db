// What every IRC command handler shares: the core, the server's names, the live connections by
// nick and the channel relay; plus the one credential check (password or agent token).
import type { Logger } from 'pino';

import { AGENT_TOKEN_PREFIX } from '../backplane/index.js';
import type { Core } from '../core/index.js';
import type { AgentPrincipal, Connection } from './connection.js';

/** Delivers channel messages to the connections that joined them (see relay.ts). */
export interface RelayHandle {
  /** Starts following `channel` for `conn` (idempotent per connection). */
  add(channel: string, conn: Connection): void;
  /** Stops delivering `channel` to `conn`. */
  remove(channel: string, conn: Connection): void;
}

export interface IrcContext {
  core: Core;
  logger: Logger;
  serverName: string;
  network: string;
  createdAt: Date;
  /** Registered connections by lower-cased nick. */
  byNick: Map<string, Connection>;
  relay: RelayHandle;
}

/** Case-insensitive nick key (CASEMAPPING=ascii). */
export const nickKey = (nick: string): string => nick.toLowerCase();

/**
 * Checks a nick and secret: the password register_agent returned, or the agent's bearer
 * token (`cairn_agent_…`), which must belong to the same nick. Undefined when either is wrong.
 */
export async function authenticate(
  core: Core,
  nick: string,
  secret: string,
): Promise<AgentPrincipal | undefined> {
  const agents = core.backplane.agents;
  const p = secret.startsWith(AGENT_TOKEN_PREFIX)
    ? await agents.authenticateToken(secret)
    : await agents.authenticatePassword(nick, secret);
  if (p?.kind !== 'agent' || nickKey(p.nick) !== nickKey(nick)) return undefined;
  return p;
}
