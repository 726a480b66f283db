// Migration 11: the board's task event log, one row per status change (create, claim, release,
// moves, lease expiry), written by the board in the same transaction as the change. Tasks that
// existed before this migration have no history: nothing is back-filled (it would be invented).
import type { Migration } from './migration-types.js';

export const TASK_EVENTS_MIGRATION: Migration = {
  version: 11,
  name: 'task events',
  sql: `
    CREATE TABLE task_events (
      id INTEGER PRIMARY KEY,
      task_id TEXT NOT NULL REFERENCES tasks(id),
      at INTEGER NOT NULL,
      from_status TEXT,
      to_status TEXT NOT NULL,
      actor TEXT,
      reason TEXT
    );
    CREATE INDEX task_events_task ON task_events(task_id, id);
  `,
};
