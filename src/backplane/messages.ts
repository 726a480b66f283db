// Stored room posts as backplane messages: the envelope row when there is one, otherwise a
// `text` envelope synthesised from a plain team-room post (with a stable derived id).
import { createHash } from 'node:crypto';

import type { PostKind } from '../rooms/index.js';
import type { Envelope, Payload } from './envelope.js';
import { channelOfRoom } from './names.js';
import type { MessageRow } from './queries.js';
import { derivedUlid } from './ulid.js';

/** One message of a channel: its position (the room seq) and its envelope. */
export interface Message {
  channel: string;
  seq: number;
  /** The room post's kind: `user` for a human's post from the dashboard, else `message`/`system`. */
  kind: PostKind;
  envelope: Envelope;
}

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Maps a joined post/envelope row to a message. */
export function toMessage(row: MessageRow): Message {
  const id =
    row.id ??
    derivedUlid(row.created_at, createHash('sha256').update(`${row.room_id}\n${row.seq}`).digest());
  const envelope: Envelope = {
    v: 1,
    type: row.type ?? 'text',
    id,
    from: row.author_agent_id,
    to: parseJson<string[]>(row.recipients, []),
    ts: new Date(row.created_at).toISOString(),
    payload: parseJson<Payload>(row.payload, { text: row.text }),
  };
  return { channel: channelOfRoom(row.room_id), seq: row.seq, kind: row.kind, envelope };
}
