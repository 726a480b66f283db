// The backplane service: agents, channels and typed envelopes over the rooms substrate. A
// message is a room post (the room's seq is its position) plus an envelope side row written
// in the same transaction; `from` is always the acting principal, never an argument.
import type { PostKind, Rooms } from '../rooms/index.js';
import { stripInvisible } from '../shared/index.js';
import type { Store } from '../store/index.js';
import { type Agents, type Credentials, createAgents, type Principal } from './agents.js';
import { type Channels, createChannels } from './channels.js';
import { checkEnvelope, type Payload, summaryLine } from './envelope.js';
import { BackplaneForbiddenError, BackplaneRefusalError, REFUSALS } from './errors.js';
import { type Message, toMessage } from './messages.js';
import { type AgentType, checkChannel, HUMAN_NICK, OPERATOR_NICK } from './names.js';
import { insertEnvelope, roomTop, selectLatestMessages, selectMessagesAfter } from './queries.js';
import { createUlidFactory } from './ulid.js';

export interface BackplaneOptions {
  rooms: Rooms;
  clock?: () => number;
  /** Presence window for `active`. Default 5 min. */
  activeMs?: number;
}

export interface SendInput {
  channel?: string | undefined;
  type?: string | undefined;
  to?: readonly string[] | undefined;
  payload?: Payload | undefined;
}

export interface RegisterInput {
  nick?: string | undefined;
  type?: AgentType | undefined;
  channels?: readonly string[] | undefined;
}

export interface Page {
  messages: Message[];
  /** Pass back as `afterSeq` to continue. */
  nextSeq: number;
}

export const HISTORY_LIMITS = { default: 20, max: 500 } as const;
const FOLLOW_PAGE = 100;

/** The nick a principal acts as. */
export const nickOf = (p: Principal): string => (p.kind === 'operator' ? OPERATOR_NICK : p.nick);

const required = (value: string | undefined, field: string): string => {
  if (value === undefined || value.trim() === '')
    throw new BackplaneRefusalError(REFUSALS.required(field));
  return value;
};

export type Backplane = ReturnType<typeof createBackplane>;

/** Builds the backplane over a store and the rooms service. */
export function createBackplane(store: Store, options: BackplaneOptions) {
  const clock = options.clock ?? Date.now;
  const agents: Agents = createAgents(store, {
    clock,
    ...(options.activeMs === undefined ? {} : { activeMs: options.activeMs }),
  });
  const channels: Channels = createChannels(store, { rooms: options.rooms, clock });
  const ulid = createUlidFactory();

  /**
   * Registers an agent and joins it to `channels`. Only the operator or an orchestrator may.
   * All or nothing: everything is checked first, and the agent commits in one write with the
   * channels it creates and its memberships, so a refusal (a bad, reserved or taken nick, an
   * archived channel) or a failure part-way leaves no agent, channel or membership behind.
   * @throws BackplaneRefusalError, InvalidInputError, NickTakenError.
   */
  async function register(
    by: Principal,
    input: RegisterInput,
  ): Promise<Credentials & { channels: string[] }> {
    const nick = required(input.nick, 'nick');
    if (by.kind === 'agent' && by.type !== 'orchestrator')
      throw new BackplaneForbiddenError(REFUSALS.registerDenied);
    const names = [...new Set((input.channels ?? []).map((c) => checkChannel(c, 'channels').name))];
    const creator = nickOf(by);
    const agent = await agents.prepare({ nick, type: input.type ?? 'worker', createdBy: creator });
    const creds = await store.write(async (tx) => {
      const creds = await agents.insert(tx, agent);
      for (const name of names) {
        const row = await channels.writableIn(tx, name, creator);
        await options.rooms.joinIn(tx, row.room_id, creds.nick);
      }
      return creds;
    });
    return { ...creds, channels: names };
  }

  /** Stores a checked envelope as a post of `kind` by `from`, with its side row, in one write. */
  async function storeEnvelope(
    channel: { name: string; room_id: string },
    from: string,
    kind: PostKind,
    checked: ReturnType<typeof checkEnvelope>,
  ): Promise<Message> {
    const id = ulid(clock());
    const text = summaryLine(checked.type, checked.payload, checked.payloadJson);
    const post = await options.rooms.post(
      {
        ...{ roomId: channel.room_id, authorAgentId: from, kind, text },
        // Named recipients hear of it in their inbox (groups such as `@workers` are not expanded).
        addressedTo: checked.to.filter((r) => !r.startsWith('@')),
      },
      (tx, p) =>
        insertEnvelope(tx, {
          ...{ roomId: p.roomId, seq: p.seq, id, type: checked.type },
          ...{ to: JSON.stringify(checked.to), payload: checked.payloadJson },
        }),
    );
    return {
      channel: channel.name,
      seq: post.seq,
      kind,
      envelope: {
        ...{ v: 1, type: checked.type, id, from, to: checked.to },
        ...{ ts: new Date(post.createdAt).toISOString(), payload: checked.payload },
      },
    };
  }

  /**
   * Sends an envelope to a channel as `by` (creating a new, validly named channel).
   * @throws BackplaneRefusalError (missing field, observer, archived), InvalidInputError.
   */
  async function send(by: Principal, input: SendInput): Promise<Message> {
    const channelName = required(input.channel, 'channel');
    const type = required(input.type, 'type');
    if (by.kind === 'agent' && by.type === 'observer')
      throw new BackplaneForbiddenError(REFUSALS.observer);
    checkChannel(channelName);
    const checked = checkEnvelope({ type, to: input.to, payload: input.payload });
    const from = nickOf(by);
    return storeEnvelope(await channels.writable(channelName, from), from, 'message', checked);
  }

  /**
   * Posts a human's line from the dashboard into an existing channel: a `text` envelope from
   * `user` (a reserved nick), stored as a post of kind `user`. Agents read it like any message;
   * it carries no authority. Never creates a channel.
   * @throws ChannelNotFoundError, BackplaneRefusalError (archived, empty text), InvalidInputError.
   */
  async function postAsHuman(channelName: string, text: string): Promise<Message> {
    if (stripInvisible(text).trim() === '')
      throw new BackplaneRefusalError(REFUSALS.required('text'));
    const existing = await channels.existing(channelName);
    const checked = checkEnvelope({ type: 'text', payload: { text } });
    const channel = await channels.writable(existing.name, HUMAN_NICK);
    return storeEnvelope(channel, HUMAN_NICK, 'user', checked);
  }

  /** The newest `limit` messages of a channel, oldest first. @throws ChannelNotFoundError. */
  async function history(input: {
    channel?: string | undefined;
    limit?: number | undefined;
  }): Promise<Message[]> {
    const channel = await channels.existing(required(input.channel, 'channel'));
    const limit = Math.min(input.limit ?? HISTORY_LIMITS.default, HISTORY_LIMITS.max);
    return (await selectLatestMessages(store, channel.room_id, limit)).map(toMessage);
  }

  /** Messages after `afterSeq`, oldest first (a cursor page). @throws ChannelNotFoundError. */
  async function readSince(channelName: string, afterSeq: number, limit = 100): Promise<Page> {
    const channel = await channels.existing(channelName);
    return store.read(async (tx) => {
      const rows = await selectMessagesAfter(tx, channel.room_id, afterSeq, limit);
      const last = rows.at(-1);
      const nextSeq =
        rows.length === limit && last !== undefined
          ? last.seq
          : Math.max(afterSeq, await roomTop(tx, channel.room_id));
      return { messages: rows.map(toMessage), nextSeq };
    });
  }

  return {
    agents,
    channels,
    register,
    send,
    postAsHuman,
    history,
    readSince,

    /** The channel's latest seq (0 when empty): follow from here to see only new messages. */
    cursor: async (channelName: string): Promise<number> =>
      roomTop(store, (await channels.existing(channelName)).room_id),

    /** Resolves true once the channel has a message after `afterSeq` (false: timeout/abort). */
    async waitForMessage(
      channelName: string,
      afterSeq: number,
      timeoutMs: number,
      signal?: AbortSignal,
    ): Promise<boolean> {
      const channel = await channels.existing(channelName);
      return options.rooms.waitForPost(channel.room_id, afterSeq, timeoutMs, signal);
    },

    /**
     * Delivers every message after `fromSeq` to `onMessage`, in order, until `signal` aborts
     * (the IRC gateway's fan-out). Wakes at once for posts from this process (on PostgreSQL
     * from any replica), within the rooms watcher's poll interval for posts from others.
     */
    async follow(
      channelName: string,
      fromSeq: number,
      onMessage: (m: Message) => void | Promise<void>,
      signal: AbortSignal,
    ): Promise<void> {
      const { room_id: roomId } = await channels.existing(channelName);
      let cursor = fromSeq;
      while (!signal.aborted) {
        const page = await readSince(channelName, cursor, FOLLOW_PAGE);
        for (const m of page.messages) await onMessage(m);
        cursor = page.nextSeq;
        if (page.messages.length < FOLLOW_PAGE) {
          await options.rooms.waitForPost(roomId, cursor, 30_000, signal);
        }
      }
    },

    /** `{ active, total }` registered agents (revoked ones excluded). */
    status: () => agents.counts(),
  };
}
