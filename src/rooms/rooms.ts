// The team room service: numbered posts, enveloped reads with the echo guard, long-poll,
// the roster, and delegation. Imports only the store, the board and the broker's audit log.
import { addressInbox, type Board, messageEntries } from '../board/index.js';
import { stripInvisible } from '../shared/index.js';
import { type Queryable, SIGNAL_SAFETY_POLL_MS, ROW_LOCKS, type Store } from '../store/index.js';
import { delegate, type DelegateInput } from './delegate.js';
import { wrapPost } from './envelope.js';
import { EMPTY_TEXT, RoomRefusalError } from './errors.js';
import {
  type DelegationResult,
  type DeliveredPost,
  type PostKind,
  type RoomPage,
  type RoomPost,
  teamRoom,
  type TimedPage,
} from './model.js';
import {
  deleteMember,
  isMember,
  insertPost,
  maxSeq,
  selectMembers,
  selectPosts,
  upsertMember,
} from './queries.js';
import { createRoomWatcher } from './watcher.js';

export interface RoomsOptions {
  board: Board;
  clock?: () => number;
  /**
   * How often a long-poll re-reads the room while it waits. Default 25 ms when the store's
   * signals reach this process only (SQLite: other processes' posts are found by polling),
   * SIGNAL_SAFETY_POLL_MS when they reach every process (PostgreSQL: the poll only covers a missed one).
   */
  pollMs?: number;
  onError?: (err: unknown) => void;
}

export interface PostInput {
  roomId: string;
  authorAgentId: string;
  text: string;
  kind?: PostKind;
  /**
   * Agents the post is addressed to (a backplane envelope's `to` nicks): each gets it in its
   * inbox, as does anyone the text @mentions (system posts address nobody).
   */
  addressedTo?: readonly string[] | undefined;
}

export interface ReadInput {
  roomId: string;
  sinceSeq: number;
  limit: number;
  /** The reader: their own posts are skipped (the echo guard). Omit to read everything. */
  viewer?: string | undefined;
}

export interface SubscribeInput extends ReadInput {
  /** Wait up to this long for a post when none is pending (0 or omitted: answer at once). */
  waitMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

export type Rooms = ReturnType<typeof createRooms>;

/** The store signal a committed post sends: `<seq> <roomId>`. */
export const ROOM_TOPIC = 'room';

/** Parses a room signal's payload; null for a malformed one. */
function parsePost(payload: string): { roomId: string; seq: number } | null {
  const cut = payload.indexOf(' ');
  const seq = Number(payload.slice(0, cut));
  return cut > 0 && Number.isInteger(seq) ? { roomId: payload.slice(cut + 1), seq } : null;
}

/** Max remembered (room, agent) sightings before the cache is reset. */
const SEEN_CAP = 10_000;

/** Builds the rooms service over a store. Call `close` before closing the store. */
export function createRooms(store: Store, options: RoomsOptions) {
  const clock = options.clock ?? Date.now;
  const everywhere = store.signals.reach === 'database';
  const watcher = createRoomWatcher({
    maxSeq: (roomId) => maxSeq(store, roomId),
    intervalMs: options.pollMs ?? (everywhere ? SIGNAL_SAFETY_POLL_MS : 25),
    subscribe: (listener) =>
      store.signals.subscribe(ROOM_TOPIC, (payload) => {
        if (payload === null) return listener(null);
        const post = parsePost(payload);
        if (post !== null) listener(post);
      }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  const seen = new Set<string>();

  /** Adds a subscriber to the roster once per process (posting authors are added on post). */
  async function see(roomId: string, agentId: string | undefined): Promise<void> {
    if (agentId === undefined || seen.has(`${roomId}\n${agentId}`)) return;
    if (seen.size >= SEEN_CAP) seen.clear();
    await store.write((tx) => upsertMember(tx, roomId, agentId, clock()));
    seen.add(`${roomId}\n${agentId}`);
  }

  async function readRows(input: ReadInput): Promise<{ rows: RoomPost[]; nextSeq: number }> {
    return store.read(async (tx) => {
      const rows = await selectPosts(tx, input);
      const last = rows.at(-1);
      const nextSeq =
        rows.length === input.limit && last !== undefined
          ? last.seq
          : Math.max(input.sinceSeq, await maxSeq(tx, input.roomId));
      return { rows, nextSeq };
    });
  }

  const deliver = (p: RoomPost): DeliveredPost => ({
    seq: p.seq,
    authorAgentId: p.authorAgentId,
    kind: p.kind,
    wrapped: wrapPost(p),
  });

  async function read(input: ReadInput): Promise<RoomPage> {
    const { rows, nextSeq } = await readRows(input);
    return { posts: rows.map(deliver), nextSeq };
  }

  /** Like `read`, each post also carrying its time (for the dashboard, not for agents). */
  async function readTimed(input: ReadInput): Promise<TimedPage> {
    const { rows, nextSeq } = await readRows(input);
    return { posts: rows.map((p) => ({ ...deliver(p), createdAt: p.createdAt })), nextSeq };
  }

  async function knows(teamId: string, name: string): Promise<boolean> {
    if (await isMember(store, teamRoom(teamId), name)) return true;
    const tasks = await options.board.listTasks({ teamId });
    return tasks.some((t) => t.assigneeAgentId === name);
  }

  return {
    /**
     * Appends a post with the room's next sequence number (its counter row's lock, a 'rows'
     * write: posts to different rooms never wait on or roll back each other). Row locks suffice:
     * the roster and inbox rows are upserts and inserts, and `within` adds side rows keyed by
     * the post.
     * `within` runs in the same write transaction after the insert (a side row, such as a
     * backplane envelope, commits or rolls back with the post).
     * The text is stored stripped of invisible characters (`stripInvisible`).
     * @throws RoomRefusalError when the text is empty (or only invisible characters).
     */
    async post(
      input: PostInput,
      within?: (tx: Queryable, post: RoomPost) => Promise<void>,
    ): Promise<RoomPost> {
      const text = stripInvisible(input.text);
      if (text.trim() === '') throw new RoomRefusalError(EMPTY_TEXT);
      const post = await store.write(async (tx) => {
        const now = clock();
        const inserted = await insertPost(tx, {
          roomId: input.roomId,
          authorAgentId: input.authorAgentId,
          kind: input.kind ?? 'message',
          text,
          createdAt: now,
        });
        await upsertMember(tx, input.roomId, input.authorAgentId, now);
        if (inserted.kind !== 'system') {
          const where = {
            ...{ source: input.roomId, ref: `${input.roomId}#${inserted.seq}` },
            ...{ author: input.authorAgentId, at: now },
          };
          const direct = { agentIds: input.addressedTo ?? [], kind: 'message' as const };
          await addressInbox(tx, messageEntries(text, where, direct));
        }
        await within?.(tx, inserted);
        // Heard once the post commits: by this process's waiters, on PostgreSQL by every replica's.
        await store.signals.notify(tx, ROOM_TOPIC, `${inserted.seq} ${input.roomId}`);
        return inserted;
      }, ROW_LOCKS);
      seen.add(`${input.roomId}\n${input.authorAgentId}`);
      return post;
    },

    /** One page of enveloped posts after `sinceSeq` (no waiting). */
    read,

    readTimed,

    /** Reads; when nothing is pending and `waitMs` is set, waits for the next post first. */
    async subscribe(input: SubscribeInput): Promise<RoomPage> {
      await see(input.roomId, input.viewer);
      let page = await read(input);
      const deadline = Date.now() + (input.waitMs ?? 0);
      while (page.posts.length === 0) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) return page;
        if (!(await watcher.wait(input.roomId, page.nextSeq, remaining, input.signal))) return page;
        page = await read({ ...input, sinceSeq: page.nextSeq });
      }
      return page;
    },

    /** Resolves true once the room holds a post after `after` (false on timeout or abort). */
    waitForPost: (roomId: string, after: number, timeoutMs: number, signal?: AbortSignal) =>
      watcher.wait(roomId, after, timeoutMs, signal),

    /** Agents seen in the team: room posters and subscribers, and board assignees. */
    async roster(teamId: string): Promise<string[]> {
      const members = await selectMembers(store, teamRoom(teamId));
      const tasks = await options.board.listTasks({ teamId });
      const assignees = tasks.flatMap((t) =>
        t.assigneeAgentId === null ? [] : [t.assigneeAgentId],
      );
      return [...new Set([...members, ...assignees])].sort();
    },

    /** Hands work to a teammate: see {@link delegate}. */
    delegate: (input: DelegateInput): Promise<DelegationResult> =>
      delegate({ store, board: options.board, knows }, input),

    /** Adds `agentId` to a room's roster (a channel JOIN); idempotent. */
    async join(roomId: string, agentId: string): Promise<void> {
      await store.write((tx) => upsertMember(tx, roomId, agentId, clock()));
      seen.add(`${roomId}\n${agentId}`);
    },

    /**
     * Adds `agentId` to a room's roster inside the caller's write transaction `tx` (so a join
     * commits or rolls back with what the caller writes beside it); idempotent.
     */
    joinIn: (tx: Queryable, roomId: string, agentId: string): Promise<void> =>
      upsertMember(tx, roomId, agentId, clock()),

    /** Removes `agentId` from a room's roster (a channel PART); true when it was a member. */
    async leave(roomId: string, agentId: string): Promise<boolean> {
      seen.delete(`${roomId}\n${agentId}`);
      return store.write((tx) => deleteMember(tx, roomId, agentId));
    },

    /** The room's roster (posters, subscribers and joiners), sorted. */
    members: (roomId: string): Promise<string[]> => selectMembers(store, roomId),

    /** Releases waiting readers and stops polling. */
    close: (): void => watcher.close(),
  };
}
