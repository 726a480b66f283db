// What the dashboard reads from and posts to a room, whichever kind it is: a team room
// (`team:<teamId>`, enveloped posts with kind message/system/user) or a backplane channel
// (`#name`, typed envelopes). One item shape for both, one watch of the room list; it reads
// and writes through the domains, never the store.
import { HUMAN_NICK } from '../backplane/index.js';
import type { Core } from '../core/index.js';
import { isValidId, type RoomItem, type RoomSummary, teamOfRoom } from '../rooms/index.js';
import { type BoardWatch, createBoardWatch } from './board-stream.js';

/** What a human's post became. */
export interface HumanPost {
  seq: number;
  authorAgentId: string;
  kind: 'user';
}

export interface RoomFeed {
  roomId: string;
  read(after: number, limit: number): Promise<{ items: RoomItem[]; nextSeq: number }>;
  wait(after: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /**
   * Posts `text` as the human (`user`, kind `user`): a plain post in a team room, a `text`
   * envelope in a channel. @throws BackplaneRefusalError for an archived channel.
   */
  postAsHuman(text: string): Promise<HumanPost>;
}

function teamFeed(core: Core, roomId: string): RoomFeed {
  return {
    roomId,
    read: async (after, limit) => {
      const page = await core.rooms.readTimed({ roomId, sinceSeq: after, limit });
      return { items: page.posts, nextSeq: page.nextSeq };
    },
    wait: (after, timeoutMs, signal) => core.rooms.waitForPost(roomId, after, timeoutMs, signal),
    postAsHuman: async (text) => {
      const p = await core.rooms.post({ roomId, authorAgentId: HUMAN_NICK, kind: 'user', text });
      return { seq: p.seq, authorAgentId: p.authorAgentId, kind: 'user' };
    },
  };
}

function channelFeed(core: Core, channel: string): RoomFeed {
  const bp = core.backplane;
  return {
    roomId: channel,
    read: async (after, limit) => {
      const page = await bp.readSince(channel, after, limit);
      const items = page.messages.map(({ seq, kind, envelope: e }): RoomItem => ({
        seq,
        authorAgentId: e.from,
        kind: kind === 'user' ? 'user' : 'envelope',
        type: e.type,
        to: e.to,
        payload: e.payload,
        createdAt: Date.parse(e.ts),
      }));
      return { items, nextSeq: page.nextSeq };
    },
    wait: (after, timeoutMs, signal) => bp.waitForMessage(channel, after, timeoutMs, signal),
    postAsHuman: async (text) => {
      const m = await bp.postAsHuman(channel, text);
      return { seq: m.seq, authorAgentId: m.envelope.from, kind: 'user' };
    },
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
export async function listRooms(core: Core): Promise<RoomSummary[]> {
  const channels = await core.backplane.channels.list();
  return channels.map((c) => ({
    roomId: c.roomId,
    name: c.name,
    kind: c.roomId.startsWith('team:') ? 'team' : 'channel',
    topic: c.topic,
    members: c.members.length,
  }));
}

/**
 * A shared poller of the room list (`listRooms` as its change mark, every `intervalMs`, 500 ms
 * by default, only while a page listens): a new channel, a new team room, a topic or a member
 * change, from this process or another, is one change. Posts are not: each room has its stream.
 */
export function createRoomsWatch(
  core: Core,
  options: { intervalMs?: number; onError(err: unknown): void },
): BoardWatch {
  const changeMark = async (): Promise<string> => JSON.stringify(await listRooms(core));
  return createBoardWatch({ changeMark }, { ...options, intervalMs: options.intervalMs ?? 500 });
}
