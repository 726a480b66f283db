// Migration 8: the backplane. Agents (nick unique in any case, so two processes registering
// one nick at once cannot both win; only salted scrypt hashes of credentials), channels
// (#general and #fleet by default; topic; an optional expiry after which a channel is
// archived), and the envelope side row of a room post (same room/seq key as room_posts).
import type { Migration } from './migration-types.js';

export const BACKPLANE_MIGRATION: Migration = {
  version: 8,
  name: 'backplane agents, channels and envelopes',
  sql: `
    CREATE TABLE agents (
      nick TEXT NOT NULL COLLATE NOCASE PRIMARY KEY,
      type TEXT NOT NULL CHECK (type IN ('worker','orchestrator','observer')),
      password_hash TEXT NOT NULL,
      token_id TEXT NOT NULL UNIQUE,
      token_hash TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      rotated_at INTEGER,
      revoked_at INTEGER,
      last_seen_at INTEGER
    );
    CREATE TABLE channels (
      name TEXT NOT NULL PRIMARY KEY,
      room_id TEXT NOT NULL UNIQUE,
      topic TEXT NOT NULL DEFAULT '',
      topic_set_by TEXT,
      topic_set_at INTEGER,
      created_by TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER
    );
    INSERT INTO channels (name, room_id, topic, created_by, created_at)
      VALUES ('#general', '#general', 'main coordination channel', 'system', 0),
             ('#fleet', '#fleet', '', 'system', 0);
    CREATE TABLE room_envelopes (
      room_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      id TEXT NOT NULL UNIQUE,
      type TEXT NOT NULL,
      recipients TEXT NOT NULL DEFAULT '[]',
      payload TEXT NOT NULL DEFAULT '{}',
      PRIMARY KEY (room_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX room_envelopes_type ON room_envelopes(type);
  `,
};
