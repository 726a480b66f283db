// Channels: named rooms. `#general` and `#fleet` always exist; any other valid name is created
// on first use (like an IRC JOIN) or explicitly, optionally temporary: past its expiry a
// channel is archived (history kept, read-only). `#team.<id>` is the team room `team:<id>`.
import type { Rooms } from '../rooms/index.js';
import { ConflictError, InvalidInputError, stripInvisible } from '../shared/index.js';
import type { Queryable, Store } from '../store/index.js';
import { BackplaneRefusalError, ChannelNotFoundError, REFUSALS } from './errors.js';
import { type ChannelKind, type ChannelName, channelOfRoom, checkChannel } from './names.js';
import {
  type ChannelRow,
  insertChannel,
  selectChannel,
  selectChannels,
  selectTeamRooms,
  updateTopic,
} from './queries.js';

export interface Channel {
  name: string;
  kind: ChannelKind;
  roomId: string;
  topic: string;
  topicSetBy: string | null;
  topicSetAt: number | null;
  createdBy: string;
  createdAt: number;
  /** When a temporary channel is archived (null: permanent). */
  expiresAt: number | null;
  /** Past its expiry: history readable, nothing can be posted, the topic is frozen. */
  archived: boolean;
  members: string[];
}

export interface CreateChannelInput {
  name: string;
  createdBy: string;
  topic?: string | undefined;
  /** Lifetime of a temporary channel; omit for a permanent one. */
  ttlMs?: number | undefined;
}

export const TOPIC_MAX = 390;
const BAD_TOPIC = /[\p{Cc}\u2028\u2029]/u;

/** The topic as stored: invisible characters stripped, then checked. @throws InvalidInputError. */
function checkTopic(raw: string): string {
  const topic = stripInvisible(raw);
  if (topic.length > TOPIC_MAX)
    throw new InvalidInputError(`is longer than ${TOPIC_MAX} characters`, 'topic');
  if (BAD_TOPIC.test(topic))
    throw new InvalidInputError('may not contain control characters or line breaks', 'topic');
  return topic;
}

export type Channels = ReturnType<typeof createChannels>;

/** Builds the channel service over the store and the rooms it maps onto. */
export function createChannels(store: Store, options: { rooms: Rooms; clock: () => number }) {
  const { rooms, clock } = options;

  const archived = (row: ChannelRow): boolean =>
    row.expires_at !== null && row.expires_at <= clock();

  async function toChannel(row: ChannelRow): Promise<Channel> {
    return {
      name: row.name,
      kind: checkChannel(row.name).kind,
      roomId: row.room_id,
      topic: row.topic,
      topicSetBy: row.topic_set_by,
      topicSetAt: row.topic_set_at,
      createdBy: row.created_by,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      archived: archived(row),
      members: await rooms.members(row.room_id),
    };
  }

  const newRow = (input: CreateChannelInput, name: string, roomId: string): ChannelRow => {
    const now = clock();
    const topic = checkTopic(input.topic ?? '');
    return {
      ...{ name, room_id: roomId, topic, created_by: input.createdBy, created_at: now },
      ...{
        topic_set_by: topic === '' ? null : input.createdBy,
        topic_set_at: topic === '' ? null : now,
      },
      expires_at: input.ttlMs === undefined ? null : now + input.ttlMs,
    };
  };

  /** A team room nobody has named as a channel yet: shown, not stored. */
  const virtualRow = (name: string, roomId: string): ChannelRow => ({
    ...newRow({ name, createdBy: 'system' }, name, roomId),
    created_at: 0,
  });

  /** Inside `tx`: the channel's row, inserted (permanent, no topic) when it is new. */
  async function ensureIn(tx: Queryable, parsed: ChannelName, by: string): Promise<ChannelRow> {
    const found = await selectChannel(tx, parsed.name);
    if (found !== undefined) return found;
    const row = newRow({ name: parsed.name, createdBy: by }, parsed.name, parsed.roomId);
    await insertChannel(tx, row); // no conflict: the select ran in this write transaction
    return row;
  }

  const live = (row: ChannelRow): ChannelRow => {
    if (archived(row)) throw new BackplaneRefusalError(REFUSALS.archived(row.name));
    return row;
  };

  /** A live channel to write to, created when new. @throws BackplaneRefusalError when archived. */
  async function writable(raw: string, by: string): Promise<ChannelRow> {
    const parsed = checkChannel(raw);
    const found = await selectChannel(store, parsed.name);
    return live(found ?? (await store.write((tx) => ensureIn(tx, parsed, by))));
  }

  /**
   * `writable` inside the caller's write transaction, so a new channel commits (or rolls back)
   * with the caller's other rows. @throws BackplaneRefusalError when archived.
   */
  const writableIn = async (tx: Queryable, raw: string, by: string): Promise<ChannelRow> =>
    live(await ensureIn(tx, checkChannel(raw), by));

  /** An existing channel (rows, and team rooms someone joined). @throws ChannelNotFoundError. */
  async function existing(raw: string): Promise<ChannelRow> {
    const parsed = checkChannel(raw);
    const row = await selectChannel(store, parsed.name);
    if (row !== undefined) return row;
    if (parsed.kind === 'team' && (await rooms.members(parsed.roomId)).length > 0) {
      return virtualRow(parsed.name, parsed.roomId);
    }
    throw new ChannelNotFoundError(parsed.name);
  }

  return {
    writable,
    writableIn,
    existing,

    /** One channel with its members. @throws InvalidInputError, ChannelNotFoundError. */
    get: async (raw: string): Promise<Channel> => toChannel(await existing(raw)),

    /**
     * Creates a channel, optionally temporary (`ttlMs`) and with a topic.
     * @throws InvalidInputError for a bad name or topic; ConflictError when it exists.
     */
    async create(input: CreateChannelInput): Promise<Channel> {
      const parsed = checkChannel(input.name, 'name');
      if (input.ttlMs !== undefined && !(Number.isInteger(input.ttlMs) && input.ttlMs > 0)) {
        throw new InvalidInputError('must be a positive number of milliseconds', 'ttlMs');
      }
      const row = newRow(input, parsed.name, parsed.roomId);
      if (!(await store.write((tx) => insertChannel(tx, row)))) {
        throw new ConflictError(`channel exists: ${parsed.name}`);
      }
      return toChannel(row);
    },

    /** Sets the shared topic. @throws BackplaneRefusalError when archived; InvalidInputError. */
    async setTopic(raw: string, topic: string, by: string): Promise<Channel> {
      const row = await writable(raw, by);
      await store.write((tx) => updateTopic(tx, row.name, checkTopic(topic), by, clock()));
      return toChannel(await existing(row.name));
    },

    /** Joins `nick` to a channel, creating it when new. @throws when archived. */
    async join(raw: string, nick: string): Promise<Channel> {
      const row = await writable(raw, nick);
      await rooms.join(row.room_id, nick);
      return toChannel(row);
    },

    /** Removes `nick` from a channel's members; true when it was one. */
    async part(raw: string, nick: string): Promise<boolean> {
      const row = await existing(raw);
      return rooms.leave(row.room_id, nick);
    },

    /** Every channel (team rooms included), by name; archived ones only when asked. */
    async list(opts: { includeArchived?: boolean } = {}): Promise<Channel[]> {
      const rows = await selectChannels(store);
      const named = new Set(rows.map((r) => r.room_id));
      for (const roomId of await selectTeamRooms(store)) {
        const name = channelOfRoom(roomId);
        if (!named.has(roomId) && checkTeamName(name)) rows.push(virtualRow(name, roomId));
      }
      const shown = rows.filter((r) => opts.includeArchived === true || !archived(r));
      shown.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return Promise.all(shown.map(toChannel));
    },
  };
}

/** Team ids that are not valid in a channel name stay teamchat-only. */
function checkTeamName(name: string): boolean {
  try {
    return checkChannel(name).kind === 'team';
  } catch {
    return false;
  }
}
