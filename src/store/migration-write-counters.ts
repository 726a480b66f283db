// Migration 33: counters that let hot writes take a row lock instead of reading a range (issue
// 16). A room's next post number comes from its row in room_seqs (an upsert with RETURNING);
// on PostgreSQL, the tasks' and comments' insertion order (migration 32) comes from sequences.
import type { Migration } from './migration-types.js';

export const WRITE_COUNTERS_MIGRATION: Migration = {
  version: 33,
  name: 'room sequence counters and insertion sequences',
  sql: `
    CREATE TABLE room_seqs (
      room_id TEXT PRIMARY KEY,
      seq INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO room_seqs (room_id, seq) SELECT room_id, MAX(seq) FROM room_posts GROUP BY room_id;
  `,
  pg: `
    CREATE TABLE room_seqs (
      room_id TEXT PRIMARY KEY,
      seq BIGINT NOT NULL
    );
    INSERT INTO room_seqs (room_id, seq) SELECT room_id, MAX(seq) FROM room_posts GROUP BY room_id;
    CREATE SEQUENCE tasks_seq_gen;
    SELECT setval('tasks_seq_gen', COALESCE((SELECT MAX(seq) FROM tasks), 0) + 1, false);
    CREATE SEQUENCE task_comments_seq_gen;
    SELECT setval('task_comments_seq_gen', COALESCE((SELECT MAX(seq) FROM task_comments), 0) + 1, false);
  `,
};
