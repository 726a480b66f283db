// Migration 26: observation memory. An observation is a memory item (kind 'observation', so
// memory_fts and the embedding backlog already index its title, content and tags); this side
// table holds what only observations have: the spec's resource type, the session, project and
// repository they belong to, the provenance of the write, an optional idempotency key, and the
// time they were observed (the timeline's order).
import type { Migration } from './migration-types.js';

export const OBSERVATIONS_MIGRATION: Migration = {
  version: 26,
  name: 'observation memory',
  sql: `
    CREATE TABLE memory_observations (
      item_rowid INTEGER PRIMARY KEY REFERENCES memory_items(rowid),
      resource TEXT NOT NULL CHECK (resource IN
        ('observation','execution','quality_gate','error_pattern','session')),
      session_id TEXT,
      project_id TEXT,
      repo_id TEXT,
      obs_key TEXT,
      provenance TEXT NOT NULL DEFAULT '{}',
      observed_at INTEGER NOT NULL
    );
    CREATE INDEX memory_observations_time ON memory_observations(observed_at, item_rowid);
    CREATE INDEX memory_observations_session ON memory_observations(session_id, observed_at)
      WHERE session_id IS NOT NULL;
    CREATE INDEX memory_observations_project ON memory_observations(project_id, observed_at)
      WHERE project_id IS NOT NULL;
    CREATE INDEX memory_observations_repo ON memory_observations(repo_id, observed_at)
      WHERE repo_id IS NOT NULL;
    CREATE INDEX memory_observations_key ON memory_observations(obs_key)
      WHERE obs_key IS NOT NULL;
  `,
};
