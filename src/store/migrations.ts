// Forward-only, numbered schema migrations applied when a store opens. Never edit a
// migration that has shipped: add the next number instead.

import { AGENT_INBOX_MIGRATION } from './migration-agent-inbox.js';
import { AGENT_SESSIONS_MIGRATION } from './migration-agent-sessions.js';
import { APPROVAL_LEASE_MIGRATION } from './migration-approval-lease.js';
import { APPROVAL_TASK_MIGRATION } from './migration-approval-task.js';
import { BACKPLANE_MIGRATION } from './migration-backplane.js';
import { CODE_INDEX_JOBS_MIGRATION } from './migration-code-index-jobs.js';
import { CODE_INDEX_MIGRATION } from './migration-code-index.js';
import { CODE_JOB_HOST_MIGRATION } from './migration-code-job-host.js';
import { CODE_POSTINGS_MIGRATION } from './migration-code-postings.js';
import { CODE_RANKING_MIGRATION } from './migration-code-ranking.js';
import { ENTITIES_MIGRATION } from './migration-entities.js';
import { GRAPH_MIGRATION } from './migration-graph.js';
import { HUMAN_AUTH_MIGRATION } from './migration-human-auth.js';
import { OBSERVATION_POSTINGS_MIGRATION } from './migration-observation-postings.js';
import { OBSERVATIONS_MIGRATION } from './migration-observations.js';
import { POSTINGS_MIGRATION } from './migration-postings.js';
import { ROOM_USER_KIND_MIGRATION } from './migration-room-user-kind.js';
import { SCOPE_KEY_MIGRATION } from './migration-scope-key.js';
import { TASK_CIRCUIT_MIGRATION } from './migration-task-circuit.js';
import { TASK_EVENT_ORIGIN_MIGRATION } from './migration-task-event-origin.js';
import { TASK_EVENTS_BACKFILL_MIGRATION } from './migration-task-events-backfill.js';
import { TASK_EVENTS_MIGRATION } from './migration-task-events.js';
import { TASK_SEQ_MIGRATION } from './migration-task-seq.js';
import { TOOL_GRANTS_MIGRATION } from './migration-tool-grants.js';
import type { Migration } from './migration-types.js';
import { VAULT_COACTIVATION_MIGRATION } from './migration-vault-coactivation.js';
import { VAULT_EXTRACTION_MIGRATION } from './migration-vault-extraction.js';
import { VAULT_GRAPH_MIGRATION } from './migration-vault-graph.js';
import { VAULT_MIGRATION } from './migration-vault.js';
import { WRITE_COUNTERS_MIGRATION } from './migration-write-counters.js';

export type { Migration, MigrationDb } from './migration-types.js';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'board',
    sql: `
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        team_id TEXT,
        parent_task_id TEXT REFERENCES tasks(id),
        depth INTEGER NOT NULL DEFAULT 0,
        title TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL CHECK (status IN
          ('backlog','todo','in_progress','in_review','blocked','done','cancelled')),
        priority INTEGER NOT NULL DEFAULT 0,
        assignee_agent_id TEXT,
        assignee_runtime TEXT,
        lease_expires_at INTEGER,
        created_via TEXT NOT NULL DEFAULT 'api',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        deleted_at INTEGER
      );
      CREATE INDEX tasks_parent ON tasks(parent_task_id);
      CREATE INDEX tasks_status ON tasks(status, priority DESC, created_at);
      CREATE INDEX tasks_team ON tasks(team_id, status);
      CREATE INDEX tasks_roots_recent ON tasks(created_at) WHERE parent_task_id IS NULL;
      CREATE INDEX tasks_lease ON tasks(lease_expires_at) WHERE status = 'in_progress';

      CREATE TABLE task_comments (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks(id),
        body TEXT NOT NULL,
        author_agent_id TEXT,
        author_type TEXT NOT NULL CHECK (author_type IN ('agent','user','system')),
        created_at INTEGER NOT NULL
      );
      CREATE INDEX task_comments_task ON task_comments(task_id, created_at);

      CREATE TABLE task_dependencies (
        task_id TEXT NOT NULL REFERENCES tasks(id),
        depends_on_task_id TEXT NOT NULL REFERENCES tasks(id),
        created_at INTEGER NOT NULL,
        PRIMARY KEY (task_id, depends_on_task_id)
      );
      CREATE INDEX task_dependencies_rev ON task_dependencies(depends_on_task_id);
    `,
  },
  {
    // The lease sweep (run by every claim, renewal and listing) filters on status = 'in_progress'
    // and a lease range. Without statistics SQLite preferred tasks_status for that and scanned
    // every in_progress row; an index led by status is chosen for both terms.
    version: 2,
    name: 'lease index led by status',
    sql: `
      DROP INDEX IF EXISTS tasks_lease;
      CREATE INDEX tasks_in_progress_lease ON tasks(status, lease_expires_at)
        WHERE status = 'in_progress';
    `,
  },
  {
    // One table family for every memory item: facts and procedures now, observations and
    // document chunks (the markdown vault, code context) later. Scope columns use '' for
    // "none" (global) so equality filters stay index-friendly. Vectors live in per-dimension
    // vec0 tables created on demand; memory_vectors records which model made each one.
    version: 3,
    name: 'memory',
    sql: `
      CREATE TABLE memory_items (
        rowid INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('fact','procedure','observation','document','chunk')),
        tenant_id TEXT NOT NULL DEFAULT '',
        team_id TEXT NOT NULL DEFAULT '',
        agent_id TEXT NOT NULL DEFAULT '',
        vault TEXT NOT NULL DEFAULT '',
        parent_id TEXT,
        name TEXT,
        version INTEGER NOT NULL DEFAULT 1,
        title TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        content_hash TEXT NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}',
        lifecycle TEXT NOT NULL DEFAULT 'active',
        pinned INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        deleted_at INTEGER
      );
      CREATE INDEX memory_items_scope ON memory_items(kind, team_id, agent_id, created_at);
      CREATE INDEX memory_items_recent ON memory_items(created_at) WHERE deleted_at IS NULL;
      CREATE INDEX memory_items_hash ON memory_items(content_hash, kind);
      CREATE INDEX memory_items_name ON memory_items(kind, name, version) WHERE name IS NOT NULL;
      CREATE INDEX memory_items_parent ON memory_items(parent_id) WHERE parent_id IS NOT NULL;

      CREATE VIRTUAL TABLE memory_fts USING fts5(
        title, content, tags,
        content = 'memory_items', content_rowid = 'rowid',
        tokenize = 'porter unicode61'
      );
      CREATE TRIGGER memory_items_ai AFTER INSERT ON memory_items BEGIN
        INSERT INTO memory_fts(rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
      END;
      CREATE TRIGGER memory_items_ad AFTER DELETE ON memory_items BEGIN
        INSERT INTO memory_fts(memory_fts, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
      END;
      CREATE TRIGGER memory_items_au AFTER UPDATE OF title, content, tags ON memory_items BEGIN
        INSERT INTO memory_fts(memory_fts, rowid, title, content, tags)
        VALUES ('delete', old.rowid, old.title, old.content, old.tags);
        INSERT INTO memory_fts(rowid, title, content, tags)
        VALUES (new.rowid, new.title, new.content, new.tags);
      END;

      CREATE TABLE memory_vectors (
        item_rowid INTEGER PRIMARY KEY REFERENCES memory_items(rowid),
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        embedded_at INTEGER NOT NULL
      );
      CREATE INDEX memory_vectors_model ON memory_vectors(model);
    `,
  },
  {
    // memory.save's dedup lookup (content_hash, kind and the three scope columns) chose
    // memory_items_scope, which matches more of its equality terms than (content_hash, kind),
    // and so read every item of the caller's team: 12 ms a save at 100k facts (33 ms global).
    version: 4,
    name: 'memory dedup index covers the scope',
    sql: `
      DROP INDEX IF EXISTS memory_items_hash;
      CREATE INDEX memory_items_hash
        ON memory_items(content_hash, kind, tenant_id, team_id, agent_id);
    `,
  },
  {
    // The tool broker: an append-only audit log (one row per pipeline step; `reason` holds a
    // denial reason so the circuit breaker counts without parsing JSON), DB-mediated approvals
    // any process can decide, allow_always grants, persisted notes and circuit state.
    version: 5,
    name: 'tool broker',
    sql: `
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        call_id TEXT,
        tool TEXT NOT NULL,
        caller TEXT NOT NULL,
        step TEXT NOT NULL,
        outcome TEXT NOT NULL,
        reason TEXT,
        detail TEXT NOT NULL DEFAULT 'null'
      );
      CREATE INDEX audit_log_at ON audit_log(at);
      CREATE INDEX audit_log_tool ON audit_log(tool, at);
      CREATE INDEX audit_log_caller ON audit_log(caller, tool, at);
      CREATE INDEX audit_log_call ON audit_log(call_id) WHERE call_id IS NOT NULL;
      CREATE TABLE tool_approvals (
        id TEXT PRIMARY KEY,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        caller TEXT NOT NULL,
        args TEXT NOT NULL,
        reason TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending','allowed','denied','expired','cancelled')),
        decision TEXT CHECK (decision IN ('allow_once','allow_always','deny')),
        decided_by TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        decided_at INTEGER
      );
      CREATE INDEX tool_approvals_status ON tool_approvals(status, created_at);
      CREATE TABLE tool_grants (
        caller TEXT NOT NULL,
        tool TEXT NOT NULL,
        approval_id TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (caller, tool)
      );
      CREATE TABLE tool_notes (
        id TEXT PRIMARY KEY,
        caller TEXT NOT NULL,
        note TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX tool_notes_recent ON tool_notes(created_at);
      CREATE TABLE tool_circuits (
        caller TEXT NOT NULL,
        tool TEXT NOT NULL,
        open_until INTEGER NOT NULL,
        counted_from INTEGER NOT NULL,
        PRIMARY KEY (caller, tool)
      );
    `,
  },
  {
    // Team rooms: posts numbered per room inside the write transaction (gap-free across
    // processes; the primary key refuses a duplicate), and the roster of agents seen per room.
    version: 6,
    name: 'team rooms',
    sql: `
      CREATE TABLE room_posts (
        room_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        author_agent_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('message','system')),
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (room_id, seq)
      ) WITHOUT ROWID;
      CREATE TABLE room_members (
        room_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        PRIMARY KEY (room_id, agent_id)
      ) WITHOUT ROWID;
    `,
  },
  SCOPE_KEY_MIGRATION,
  BACKPLANE_MIGRATION,
  HUMAN_AUTH_MIGRATION,
  ROOM_USER_KIND_MIGRATION,
  TASK_EVENTS_MIGRATION,
  APPROVAL_TASK_MIGRATION,
  TASK_EVENTS_BACKFILL_MIGRATION,
  POSTINGS_MIGRATION,
  TASK_CIRCUIT_MIGRATION,
  AGENT_INBOX_MIGRATION,
  APPROVAL_LEASE_MIGRATION,
  TOOL_GRANTS_MIGRATION,
  TASK_EVENT_ORIGIN_MIGRATION,
  CODE_INDEX_MIGRATION,
  CODE_POSTINGS_MIGRATION,
  CODE_INDEX_JOBS_MIGRATION,
  CODE_RANKING_MIGRATION,
  VAULT_MIGRATION,
  VAULT_COACTIVATION_MIGRATION,
  OBSERVATIONS_MIGRATION,
  AGENT_SESSIONS_MIGRATION,
  ENTITIES_MIGRATION,
  GRAPH_MIGRATION,
  VAULT_GRAPH_MIGRATION,
  VAULT_EXTRACTION_MIGRATION,
  TASK_SEQ_MIGRATION,
  WRITE_COUNTERS_MIGRATION,
  OBSERVATION_POSTINGS_MIGRATION,
  CODE_JOB_HOST_MIGRATION,
];
