// The SQL of the backplane: agents, channels and the envelope side rows of room posts.
// Portable statements only; nick uniqueness is the table's (case-insensitive) primary key.
import type { PostRow } from '../rooms/index.js';
import type { Queryable } from '../store/index.js';
import type { AgentType } from './names.js';

export interface AgentRow {
  nick: string;
  type: AgentType;
  password_hash: string;
  token_id: string;
  token_hash: string;
  created_by: string;
  created_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
  last_seen_at: number | null;
}

export interface ChannelRow {
  name: string;
  room_id: string;
  topic: string;
  topic_set_by: string | null;
  topic_set_at: number | null;
  created_by: string;
  created_at: number;
  expires_at: number | null;
}

/** A room post joined with its envelope row (absent for plain teamchat posts). */
export interface MessageRow extends PostRow {
  id: string | null;
  type: string | null;
  recipients: string | null;
  payload: string | null;
}

export const selectAgent = (q: Queryable, nick: string): Promise<AgentRow | undefined> =>
  q.get<AgentRow>('SELECT * FROM agents WHERE nick = ?', [nick]);

export const selectAgentByTokenId = (
  q: Queryable,
  tokenId: string,
): Promise<AgentRow | undefined> =>
  q.get<AgentRow>('SELECT * FROM agents WHERE token_id = ?', [tokenId]);

/** Every agent, by nick ignoring case (`lower`, not SQLite's NOCASE collation: portable). */
export const selectAgents = (q: Queryable): Promise<AgentRow[]> =>
  q.all<AgentRow>('SELECT * FROM agents ORDER BY lower(nick), nick');

/** Inserts an agent; false when the nick (any case) is taken. */
export async function insertAgent(tx: Queryable, row: AgentRow): Promise<boolean> {
  const r = await tx.run(
    `INSERT INTO agents (nick, type, password_hash, token_id, token_hash, created_by, created_at,
       rotated_at, revoked_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL)
     ON CONFLICT (nick) DO NOTHING`,
    [
      row.nick,
      row.type,
      row.password_hash,
      row.token_id,
      row.token_hash,
      row.created_by,
      row.created_at,
    ],
  );
  return r.changes === 1;
}

export async function updateCredentials(
  tx: Queryable,
  nick: string,
  c: { passwordHash: string; tokenId: string; tokenHash: string; now: number },
): Promise<boolean> {
  const r = await tx.run(
    `UPDATE agents SET password_hash = ?, token_id = ?, token_hash = ?, rotated_at = ?,
       revoked_at = NULL WHERE nick = ?`,
    [c.passwordHash, c.tokenId, c.tokenHash, c.now, nick],
  );
  return r.changes === 1;
}

/** Revokes an agent: the hashes are replaced by unusable markers, the nick stays reserved. */
export async function revokeAgent(tx: Queryable, nick: string, now: number): Promise<boolean> {
  const r = await tx.run(
    `UPDATE agents SET password_hash = 'revoked', token_hash = 'revoked',
       token_id = 'revoked:' || nick, revoked_at = ? WHERE nick = ?`,
    [now, nick],
  );
  return r.changes === 1;
}

export async function touchAgent(q: Queryable, nick: string, now: number): Promise<void> {
  await q.run(
    'UPDATE agents SET last_seen_at = ? WHERE nick = ? AND (last_seen_at IS NULL OR last_seen_at < ?)',
    [now, nick, now],
  );
}

export const selectChannel = (q: Queryable, name: string): Promise<ChannelRow | undefined> =>
  q.get<ChannelRow>('SELECT * FROM channels WHERE name = ?', [name]);

export const selectChannels = (q: Queryable): Promise<ChannelRow[]> =>
  q.all<ChannelRow>('SELECT * FROM channels ORDER BY name');

/** Creates a channel row unless it exists; true when this call created it. */
export async function insertChannel(tx: Queryable, row: ChannelRow): Promise<boolean> {
  const r = await tx.run(
    `INSERT INTO channels (name, room_id, topic, topic_set_by, topic_set_at, created_by,
       created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
    [
      row.name,
      row.room_id,
      row.topic,
      row.topic_set_by,
      row.topic_set_at,
      row.created_by,
      row.created_at,
      row.expires_at,
    ],
  );
  return r.changes === 1;
}

export async function updateTopic(
  tx: Queryable,
  name: string,
  topic: string,
  by: string,
  now: number,
): Promise<void> {
  await tx.run('UPDATE channels SET topic = ?, topic_set_by = ?, topic_set_at = ? WHERE name = ?', [
    topic,
    by,
    now,
    name,
  ]);
}

/**
 * Team rooms someone has joined or posted to (shown as `#team.<teamId>`). A prefix test, not a
 * `'team:' <= room_id < 'team;'` range: PostgreSQL orders text by the database's collation.
 */
export async function selectTeamRooms(q: Queryable): Promise<string[]> {
  const rows = await q.all<{ room_id: string }>(
    `SELECT DISTINCT room_id FROM room_members WHERE substr(room_id, 1, 5) = 'team:'`,
  );
  return rows.map((r) => r.room_id);
}

export async function insertEnvelope(
  tx: Queryable,
  e: { roomId: string; seq: number; id: string; type: string; to: string; payload: string },
): Promise<void> {
  await tx.run(
    'INSERT INTO room_envelopes (room_id, seq, id, type, recipients, payload) VALUES (?, ?, ?, ?, ?, ?)',
    [e.roomId, e.seq, e.id, e.type, e.to, e.payload],
  );
}

const MESSAGE_SELECT = `SELECT p.room_id, p.seq, p.author_agent_id, p.kind, p.text, p.created_at,
  e.id, e.type, e.recipients, e.payload
  FROM room_posts p LEFT JOIN room_envelopes e ON e.room_id = p.room_id AND e.seq = p.seq`;

/** Messages after `sinceSeq`, oldest first. */
export const selectMessagesAfter = (
  q: Queryable,
  roomId: string,
  sinceSeq: number,
  limit: number,
): Promise<MessageRow[]> =>
  q.all<MessageRow>(`${MESSAGE_SELECT} WHERE p.room_id = ? AND p.seq > ? ORDER BY p.seq LIMIT ?`, [
    roomId,
    sinceSeq,
    limit,
  ]);

/** The newest `limit` messages, oldest first. */
export async function selectLatestMessages(
  q: Queryable,
  roomId: string,
  limit: number,
): Promise<MessageRow[]> {
  const rows = await q.all<MessageRow>(
    `${MESSAGE_SELECT} WHERE p.room_id = ? ORDER BY p.seq DESC LIMIT ?`,
    [roomId, limit],
  );
  return rows.reverse();
}

/** The highest seq of a room (0 when empty). */
export async function roomTop(q: Queryable, roomId: string): Promise<number> {
  const row = await q.get<{ top: number | null }>(
    'SELECT MAX(seq) AS top FROM room_posts WHERE room_id = ?',
    [roomId],
  );
  return row?.top ?? 0;
}
