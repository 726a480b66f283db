// The SQL of the rooms domain: numbering, inserting and paging posts, and the roster table.
// Portable statements only: a room's numbers come from its counter row (room_seqs), whose
// upsert locks that row, so posts to one room take turns and posts to different rooms never meet.
import type { Queryable } from '../store/index.js';
import type { PostKind, RoomPost } from './model.js';

/** A room_posts row as stored (the backplane joins its envelope columns onto it). */
export interface PostRow {
  room_id: string;
  seq: number;
  author_agent_id: string;
  kind: PostKind;
  text: string;
  created_at: number;
}

const toPost = (r: PostRow): RoomPost => ({
  roomId: r.room_id,
  seq: r.seq,
  authorAgentId: r.author_agent_id,
  kind: r.kind,
  text: r.text,
  createdAt: r.created_at,
});

/** The highest committed seq of a room (0 when empty). */
export async function maxSeq(q: Queryable, roomId: string): Promise<number> {
  const row = await q.get<{ top: number | null }>(
    'SELECT MAX(seq) AS top FROM room_posts WHERE room_id = ?',
    [roomId],
  );
  return row?.top ?? 0;
}

/**
 * Takes the room's next number: increments its counter row (creating it at 1), which holds
 * the row locked until the transaction ends. A rolled-back post gives its number back, so
 * the committed numbers stay gap-free, and they commit in order.
 */
async function nextSeq(tx: Queryable, roomId: string): Promise<number> {
  const row = await tx.get<{ seq: number }>(
    `INSERT INTO room_seqs (room_id, seq) VALUES (?, 1)
     ON CONFLICT (room_id) DO UPDATE SET seq = room_seqs.seq + 1 RETURNING seq`,
    [roomId],
  );
  if (row === undefined) throw new Error(`no sequence number for room ${roomId}`);
  return Number(row.seq);
}

/**
 * Inserts the next post of a room. Call inside a write transaction (a 'rows' write is enough:
 * the counter row's lock makes the numbers gap-free).
 */
export async function insertPost(tx: Queryable, post: Omit<RoomPost, 'seq'>): Promise<RoomPost> {
  const seq = await nextSeq(tx, post.roomId);
  await tx.run(
    'INSERT INTO room_posts (room_id, seq, author_agent_id, kind, text, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [post.roomId, seq, post.authorAgentId, post.kind, post.text, post.createdAt],
  );
  return { ...post, seq };
}

/** Posts after `sinceSeq`, oldest first, skipping `viewer`'s own when given. */
export async function selectPosts(
  q: Queryable,
  page: { roomId: string; sinceSeq: number; limit: number; viewer?: string | undefined },
): Promise<RoomPost[]> {
  const own = page.viewer === undefined ? '' : 'AND author_agent_id <> ?';
  const params = page.viewer === undefined ? [] : [page.viewer];
  const rows = await q.all<PostRow>(
    `SELECT * FROM room_posts WHERE room_id = ? AND seq > ? ${own} ORDER BY seq LIMIT ?`,
    [page.roomId, page.sinceSeq, ...params, page.limit],
  );
  return rows.map(toPost);
}

/** Records that `agentId` was seen in the room (first and last time). */
export async function upsertMember(
  tx: Queryable,
  roomId: string,
  agentId: string,
  now: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO room_members (room_id, agent_id, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (room_id, agent_id) DO UPDATE SET last_seen_at = excluded.last_seen_at`,
    [roomId, agentId, now, now],
  );
}

/** Removes `agentId` from the room's roster (a channel PART); true when it was there. */
export async function deleteMember(
  tx: Queryable,
  roomId: string,
  agentId: string,
): Promise<boolean> {
  const r = await tx.run('DELETE FROM room_members WHERE room_id = ? AND agent_id = ?', [
    roomId,
    agentId,
  ]);
  return r.changes > 0;
}

export async function selectMembers(q: Queryable, roomId: string): Promise<string[]> {
  const rows = await q.all<{ agent_id: string }>(
    'SELECT agent_id FROM room_members WHERE room_id = ? ORDER BY agent_id',
    [roomId],
  );
  return rows.map((r) => r.agent_id);
}

export async function isMember(q: Queryable, roomId: string, agentId: string): Promise<boolean> {
  const row = await q.get<{ one: number }>(
    'SELECT 1 AS one FROM room_members WHERE room_id = ? AND agent_id = ?',
    [roomId, agentId],
  );
  return row !== undefined;
}
