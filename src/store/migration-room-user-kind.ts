// Migration 10: room posts may have kind 'user' (a human's post from the dashboard). SQLite
// cannot alter a CHECK constraint, so room_posts is rebuilt: same columns, same WITHOUT ROWID
// (room_id, seq) key, every row copied. No table declares a foreign key to room_posts
// (room_envelopes shares its key by convention), so nothing else needs rewriting.
import type { Migration } from './migration-types.js';

export const ROOM_USER_KIND_MIGRATION: Migration = {
  version: 10,
  name: 'room posts of kind user',
  sql: `
    CREATE TABLE room_posts_v10 (
      room_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      author_agent_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('message','system','user')),
      text TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (room_id, seq)
    ) WITHOUT ROWID;
    INSERT INTO room_posts_v10 (room_id, seq, author_agent_id, kind, text, created_at)
      SELECT room_id, seq, author_agent_id, kind, text, created_at FROM room_posts;
    DROP TABLE room_posts;
    ALTER TABLE room_posts_v10 RENAME TO room_posts;
  `,
};
