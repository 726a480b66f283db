// Migration 19: where a task event came from. `actor_client` is the MCP client's self-reported
// name (clientInfo.name) of the session that made the change, `actor_via` its transport
// (`stdio`, `http`) or `dashboard`; so a change by an unbound session names its client instead
// of "unknown". Older events keep NULL in both: nothing is back-filled (it would be invented).
import type { Migration } from './migration-types.js';

export const TASK_EVENT_ORIGIN_MIGRATION: Migration = {
  version: 19,
  name: 'task event origin',
  sql: `
    ALTER TABLE task_events ADD COLUMN actor_client TEXT;
    ALTER TABLE task_events ADD COLUMN actor_via TEXT;
  `,
};
