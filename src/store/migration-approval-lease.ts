// Migration 17: a waiting call holds a lease on its pending approval (`waiter_lease_until`,
// epoch ms, renewed while it waits), so a decider in another process can tell a waiter that
// is gone (killed, crashed) from one still waiting; `closed_reason` says why a row was
// cancelled. Rows written before it have no lease (NULL: treated as held until they expire).
import type { Migration } from './migration-types.js';

export const APPROVAL_LEASE_MIGRATION: Migration = {
  version: 17,
  name: 'approval waiter lease',
  sql: `
    ALTER TABLE tool_approvals ADD COLUMN waiter_lease_until INTEGER;
    ALTER TABLE tool_approvals ADD COLUMN closed_reason TEXT;
  `,
};
