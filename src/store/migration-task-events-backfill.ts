// Migration 13: every task that has no status event yet (created before migration 11) gets one,
// so its drawer history is never empty: its current status at its last update, from no known
// status (`from_status` NULL), by an unknown actor, marked by the reason `back-filled: …`.
// Nothing earlier is invented; tasks that already have events are left alone.
import type { Migration } from './migration-types.js';

/** The reason of a back-filled event; `back-filled` is the stable prefix to test for. */
export const BACKFILL_REASON = 'back-filled: earlier changes were not recorded';

export const TASK_EVENTS_BACKFILL_MIGRATION: Migration = {
  version: 13,
  name: 'task events back-fill',
  sql: `
    INSERT INTO task_events (task_id, at, from_status, to_status, actor, reason)
      SELECT t.id, COALESCE(t.updated_at, t.created_at), NULL, t.status, NULL,
        '${BACKFILL_REASON}'
      FROM tasks t
      WHERE NOT EXISTS (SELECT 1 FROM task_events e WHERE e.task_id = t.id)
      ORDER BY t.created_at, t.id;
  `,
};
