// Naming rules of the backplane: nicks, channel names (and which room each maps to), agent
// types and envelope recipients. Pure functions; the texts are what callers read on refusal.
import { InvalidInputError } from '../shared/index.js';

export const AGENT_TYPES = ['worker', 'orchestrator', 'observer'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

/** The nick of the operator principal (the server API token, or the local stdio user). */
export const OPERATOR_NICK = 'operator';
/** The nick of a human posting from the dashboard (its posts are stored with kind `user`). */
export const HUMAN_NICK = 'user';
/** Nicks nobody may register: they name principals or groups. */
const RESERVED_NICKS = new Set([
  OPERATOR_NICK,
  HUMAN_NICK,
  'system',
  'server',
  'all',
  'nickserv',
  'chanserv',
]);

const NICK = /^[A-Za-z_][A-Za-z0-9_-]{0,31}$/;
const SEGMENT = /^[a-z0-9][a-z0-9_-]{0,47}$/;
const TEAM_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const CHANNEL_MAX = 100;

export const NICK_RULE =
  'a nick is 1-32 characters: a letter or _ first, then letters, digits, _ or -';
export const CHANNEL_RULE =
  'a channel is #name, #project.<name>.<topic>, #agent.<nick> or #team.<teamId> (segments: lowercase letters, digits, _ or -)';

/** True for a syntactically valid nick (case is kept; uniqueness ignores case). */
export const isValidNick = (nick: string): boolean => NICK.test(nick);

/**
 * Checks a nick for registration.
 * @throws InvalidInputError (field `nick`) for a malformed or reserved nick.
 */
export function checkNick(nick: string): string {
  if (!isValidNick(nick)) throw new InvalidInputError(NICK_RULE, 'nick');
  if (RESERVED_NICKS.has(nick.toLowerCase())) {
    throw new InvalidInputError(`${nick} is reserved`, 'nick');
  }
  return nick;
}

export type ChannelKind = 'simple' | 'project' | 'agent' | 'team';

export interface ChannelName {
  /** Canonical name: lowercase, except a team id, which is kept verbatim. */
  name: string;
  kind: ChannelKind;
  /** The room the channel's messages live in: the name itself, or `team:<teamId>`. */
  roomId: string;
}

function classify(rest: string): ChannelName | undefined {
  const [head = '', ...tail] = rest.split('.');
  const lower = rest.toLowerCase();
  if (head.toLowerCase() === 'team' && tail.length === 1 && TEAM_ID.test(tail[0] ?? '')) {
    return { name: `#team.${tail[0] ?? ''}`, kind: 'team', roomId: `team:${tail[0] ?? ''}` };
  }
  const parts = lower.split('.');
  if (!parts.every((p) => SEGMENT.test(p))) return undefined;
  const name = `#${lower}`;
  if (parts.length === 1) return { name, kind: 'simple', roomId: name };
  if (parts[0] === 'project' && parts.length === 3) return { name, kind: 'project', roomId: name };
  if (parts[0] === 'agent' && parts.length === 2 && NICK.test(parts[1] ?? '')) {
    return { name, kind: 'agent', roomId: name };
  }
  return undefined;
}

/** Parses a channel name, or undefined when it breaks the rules. */
export function parseChannel(raw: string): ChannelName | undefined {
  if (!raw.startsWith('#') || raw.length > CHANNEL_MAX) return undefined;
  return classify(raw.slice(1));
}

/**
 * Parses a channel name argument.
 * @throws InvalidInputError (field `channel`) naming the rules.
 */
export function checkChannel(raw: string, field = 'channel'): ChannelName {
  const parsed = parseChannel(raw);
  if (parsed === undefined) throw new InvalidInputError(`${raw}: ${CHANNEL_RULE}`, field);
  return parsed;
}

/** The channel a room is shown as: `team:<id>` → `#team.<id>`; other rooms are named as is. */
export function channelOfRoom(roomId: string): string {
  return roomId.startsWith('team:') ? `#team.${roomId.slice(5)}` : roomId;
}

const GROUPS: Record<string, AgentType | 'all'> = {
  '@all': 'all',
  '@workers': 'worker',
  '@orchestrators': 'orchestrator',
  '@observers': 'observer',
};
const PREFIX = /^@([A-Za-z_][A-Za-z0-9_-]{0,31})\*$/;

/**
 * Checks one `to` entry: a group (`@all`, `@workers`, `@orchestrators`, `@observers`), a
 * prefix pattern (`@claude-*`) or a nick (bare or `@nick`).
 * @throws InvalidInputError naming `to[i]`.
 */
export function checkRecipient(entry: string, index: number): string {
  if (entry in GROUPS || PREFIX.test(entry)) return entry;
  const nick = entry.startsWith('@') ? entry.slice(1) : entry;
  if (isValidNick(nick)) return entry;
  throw new InvalidInputError(
    `${JSON.stringify(entry.slice(0, 40))} is not a nick, a group (@all, @workers, @orchestrators, @observers) or a prefix pattern (@name-*)`,
    `to[${index}]`,
  );
}

/** Whether an envelope with recipients `to` is addressed to this agent (empty = everyone). */
export function isAddressedTo(
  to: readonly string[],
  agent: { nick: string; type: AgentType },
): boolean {
  if (to.length === 0) return true;
  const nick = agent.nick.toLowerCase();
  return to.some((entry) => {
    const group = GROUPS[entry];
    if (group !== undefined) return group === 'all' || group === agent.type;
    const prefix = PREFIX.exec(entry)?.[1];
    if (prefix !== undefined) return nick.startsWith(prefix.toLowerCase());
    return (entry.startsWith('@') ? entry.slice(1) : entry).toLowerCase() === nick;
  });
}
