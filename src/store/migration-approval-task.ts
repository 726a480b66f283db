// Migration 12: a broker approval may name the board task its call works for (`task_id`,
// nullable; rows written before it stay unlinked). No foreign key: the broker does not depend on
// the board's tables, and tasks are only ever soft-deleted. The partial index serves "what waits
// for this task" and the board's pending-approval markers.
import type { Migration } from './migration-types.js';

export const APPROVAL_TASK_MIGRATION: Migration = {
  version: 12,
  name: 'approvals name a task',
  sql: `
    ALTER TABLE tool_approvals ADD COLUMN task_id TEXT;
    CREATE INDEX tool_approvals_task ON tool_approvals(task_id, status, expires_at)
      WHERE task_id IS NOT NULL;
  `,
};
