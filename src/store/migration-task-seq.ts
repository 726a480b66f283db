// Migration 32: an explicit insertion sequence for tasks and comments (issue 16). Ties in the
// board's orderings were broken by SQLite's implicit rowid, which PostgreSQL lacks; `seq` says
// the same thing portably. Existing rows take their rowid (insertion order); new rows take
// MAX(seq) + 1 inside the board's write transaction.
import type { Migration } from './migration-types.js';

export const TASK_SEQ_MIGRATION: Migration = {
  version: 32,
  name: 'task and comment insertion sequence',
  sql: `
    ALTER TABLE tasks ADD COLUMN seq INTEGER;
    UPDATE tasks SET seq = rowid;
    CREATE UNIQUE INDEX tasks_seq ON tasks(seq);
    ALTER TABLE task_comments ADD COLUMN seq INTEGER;
    UPDATE task_comments SET seq = rowid;
    CREATE UNIQUE INDEX task_comments_seq ON task_comments(seq);
  `,
  pg: `
    ALTER TABLE tasks ADD COLUMN seq BIGINT;
    UPDATE tasks SET seq = rowid;
    CREATE UNIQUE INDEX tasks_seq ON tasks(seq);
    ALTER TABLE task_comments ADD COLUMN seq BIGINT;
    UPDATE task_comments SET seq = rowid;
    CREATE UNIQUE INDEX task_comments_seq ON task_comments(seq);
  `,
};
