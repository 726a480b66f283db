// Migration 18: allow_always grants belong to an authenticated principal (`agent:<id>`), never
// to a client's self-reported name. Grants get an id, who granted them, an optional expiry and
// a revocation; approvals record the principal of the waiting call (null: an unbound session).
// Old grants of bound agents carry over; `client:<name>` and `anonymous` ones are dropped: they
// were keyed on a name any process could claim.
import type { Migration } from './migration-types.js';

export const TOOL_GRANTS_MIGRATION: Migration = {
  version: 18,
  name: 'grants bound to principals',
  sql: `
    ALTER TABLE tool_approvals ADD COLUMN principal TEXT;
    CREATE TABLE tool_principal_grants (
      id TEXT PRIMARY KEY,
      principal TEXT NOT NULL,
      tool TEXT NOT NULL,
      approval_id TEXT,
      granted_by TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER,
      revoked_at INTEGER,
      revoked_by TEXT
    );
    INSERT INTO tool_principal_grants (id, principal, tool, approval_id, granted_by, created_at)
      SELECT lower(hex(randomblob(16))), 'agent:' || g.caller, g.tool, g.approval_id,
             COALESCE((SELECT a.decided_by FROM tool_approvals a WHERE a.id = g.approval_id),
                      'unknown'),
             g.created_at
      FROM tool_grants g
      WHERE substr(g.caller, 1, 7) <> 'client:' AND g.caller <> 'anonymous' AND g.caller <> '';
    DROP TABLE tool_grants;
    ALTER TABLE tool_principal_grants RENAME TO tool_grants;
    CREATE UNIQUE INDEX tool_grants_live ON tool_grants(principal, tool) WHERE revoked_at IS NULL;
    CREATE INDEX tool_grants_recent ON tool_grants(created_at);
  `,
};
