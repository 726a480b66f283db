// What the dashboard reads from a room, whichever kind it is: a team room (`team:<teamId>`,
// enveloped posts with kind message/system/user) or a backplane channel (`#name`, typed
// envelopes). One item shape for both; it reads through the domains, never the store.
import type { Core } from '../core/index.js';
import { isValidId, teamOfRoom } from '../rooms/index.js';

/** One post or envelope as the dashboard shows it. */
export interface RoomItem {
  seq: number;
  authorAgentId: string;
  /** `message` / `system` / `user` in a team room; `envelope` in a channel. */
  kind: string;
  /** The enveloped text agents read (team rooms). */
  wrapped?: string;
  /** A channel envelope's `type`, `to` and `payload`. */
  type?: string;
  to?: string[];
  payload?: Record<string, unknown>;
  /** Epoch ms. */
  createdAt: number;
}

export interface RoomFeed {
  roomId: string;
  /** True for `team:<teamId>` rooms: the only ones the page may post into. */
  team: boolean;
  read(after: number, limit: number): Promise<{ items: RoomItem[]; nextSeq: number }>;
  wait(after: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
}

function teamFeed(core: Core, roomId: string): RoomFeed {
  return {
    roomId,
    team: true,
    read: async (after, limit) => {
      const page = await core.rooms.readTimed({ roomId, sinceSeq: after, limit });
      return { items: page.posts, nextSeq: page.nextSeq };
    },
    wait: (after, timeoutMs, signal) => core.rooms.waitForPost(roomId, after, timeoutMs, signal),
  };
}

function channelFeed(core: Core, channel: string): RoomFeed {
  const bp = core.backplane;
  return {
    roomId: channel,
    team: false,
    read: async (after, limit) => {
      const page = await bp.readSince(channel, after, limit);
      const items = page.messages.map(({ seq, envelope: e }) => ({
        seq,
        authorAgentId: e.from,
        kind: 'envelope',
        type: e.type,
        to: e.to,
        payload: e.payload,
        createdAt: Date.parse(e.ts),
      }));
      return { items, nextSeq: page.nextSeq };
    },
    wait: (after, timeoutMs, signal) => bp.waitForMessage(channel, after, timeoutMs, signal),
  };
}

/**
 * The feed of a room id (`team:<teamId>` or a channel's `#name`), or undefined when the id is
 * neither. @throws ChannelNotFoundError for an unknown channel.
 */
export async function roomFeed(core: Core, roomId: string): Promise<RoomFeed | undefined> {
  const team = teamOfRoom(roomId);
  if (team !== undefined) return isValidId(team) ? teamFeed(core, roomId) : undefined;
  if (!roomId.startsWith('#')) return undefined;
  const channel = await core.backplane.channels.get(roomId);
  return channel.roomId.startsWith('team:')
    ? teamFeed(core, channel.roomId)
    : channelFeed(core, channel.name);
}

/** Every room the page can open: named channels and team rooms, by name. */
export async function listRooms(core: Core): Promise<unknown[]> {
  const channels = await core.backplane.channels.list();
  return channels.map((c) => ({
    roomId: c.roomId,
    name: c.name,
    kind: c.roomId.startsWith('team:') ? 'team' : 'channel',
    topic: c.topic,
    members: c.members.length,
  }));
}
