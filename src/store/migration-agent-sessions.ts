// Migration 27: agent sessions (cairn-context's session family), the tool calls and the
// delegations logged against them (agent family). A delegation links a parent session to its
// child; a session's summary lives in memory, the session keeps the hash it was built from.
import type { Migration } from './migration-types.js';

export const AGENT_SESSIONS_MIGRATION: Migration = {
  version: 27,
  name: 'agent sessions, tool calls and delegations',
  sql: `
    CREATE TABLE agent_sessions (
      id TEXT PRIMARY KEY,
      parent_session_id TEXT REFERENCES agent_sessions(id),
      status TEXT NOT NULL,
      agent_type TEXT,
      agent_program TEXT,
      model_id TEXT,
      repo_id TEXT,
      repo_path TEXT,
      project_id TEXT,
      worktree_id TEXT,
      operator_id TEXT,
      machine_id TEXT,
      delegated INTEGER NOT NULL DEFAULT 0,
      title TEXT,
      data TEXT NOT NULL DEFAULT '{}',
      provenance TEXT NOT NULL DEFAULT '{}',
      started_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      ended_at INTEGER,
      summary_hash TEXT,
      summary_id TEXT
    );
    CREATE INDEX agent_sessions_started ON agent_sessions(started_at DESC, id);
    CREATE INDEX agent_sessions_parent ON agent_sessions(parent_session_id);
    CREATE TABLE agent_tool_calls (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES agent_sessions(id),
      seq INTEGER NOT NULL,
      tool_name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('ok','error')),
      args TEXT NOT NULL DEFAULT '{}',
      result TEXT,
      error TEXT,
      duration_ms INTEGER,
      files TEXT NOT NULL DEFAULT '[]',
      provenance TEXT NOT NULL DEFAULT '{}',
      created_at INTEGER NOT NULL,
      UNIQUE (session_id, seq)
    );
    CREATE TABLE agent_delegations (
      id TEXT PRIMARY KEY,
      parent_session_id TEXT NOT NULL REFERENCES agent_sessions(id),
      child_session_id TEXT NOT NULL REFERENCES agent_sessions(id),
      seq INTEGER NOT NULL,
      agent_type TEXT,
      task TEXT,
      status TEXT NOT NULL,
      result TEXT,
      provenance TEXT NOT NULL DEFAULT '{}',
      created_at INTEGER NOT NULL,
      UNIQUE (parent_session_id, seq)
    );
    CREATE INDEX agent_delegations_child ON agent_delegations(child_session_id);
  `,
};
