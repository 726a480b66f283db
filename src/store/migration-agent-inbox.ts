// Migration 16: the agent inbox. Messages addressed to an agent while it works (a comment on a
// task it holds, an @mention in a room, a backplane envelope naming it) are written here in
// the same transaction as the message, and ride along on the agent's next tasks tool result
// (the spec's "mid-run inbox piggyback"), then deleted. Entries nobody collects are pruned
// after INBOX_KEEP_MS (src/board/inbox.ts) through the created_at index.
import type { Migration } from './migration-types.js';

export const AGENT_INBOX_MIGRATION: Migration = {
  version: 16,
  name: 'agent inbox',
  sql: `
    CREATE TABLE agent_inbox (
      id INTEGER PRIMARY KEY,
      agent_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('comment','mention','message')),
      source TEXT NOT NULL,
      ref TEXT NOT NULL,
      author TEXT,
      excerpt TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX agent_inbox_agent ON agent_inbox(agent_id, id);
    CREATE INDEX agent_inbox_created ON agent_inbox(created_at);
  `,
};
