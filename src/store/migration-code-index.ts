// Migration 20: the code index. A collection is one indexed tree (a work tree, or git refs);
// it holds files (per branch: '' is the work tree), files hold chunks, chunks hold their
// outgoing references. Who asked is recorded once per distinct provenance and referenced by
// every chunk written and every search run. Index jobs are rows, so progress is visible to
// every process and a job left `running` by a dead process is detectable (its heartbeat).
import type { Migration } from './migration-types.js';

export const CODE_INDEX_MIGRATION: Migration = {
  version: 20,
  name: 'code index',
  sql: `
    CREATE TABLE code_provenance (
      id INTEGER PRIMARY KEY,
      digest TEXT NOT NULL UNIQUE,
      session_id TEXT,
      agent_program TEXT,
      model_id TEXT,
      operator_id TEXT,
      machine_id TEXT,
      json TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );

    CREATE TABLE code_collections (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      root TEXT NOT NULL,
      mode TEXT NOT NULL CHECK (mode IN ('filesystem','git')),
      options TEXT NOT NULL DEFAULT '{}',
      repo_id TEXT,
      project_id TEXT,
      state TEXT NOT NULL DEFAULT 'empty'
        CHECK (state IN ('empty','indexing','ready','failed')),
      watch INTEGER NOT NULL DEFAULT 0,
      files INTEGER NOT NULL DEFAULT 0,
      chunks INTEGER NOT NULL DEFAULT 0,
      lines INTEGER NOT NULL DEFAULT 0,
      bytes INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      provenance_id INTEGER REFERENCES code_provenance(id),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      indexed_at INTEGER
    );

    CREATE TABLE code_files (
      id INTEGER PRIMARY KEY,
      collection_id INTEGER NOT NULL REFERENCES code_collections(id) ON DELETE CASCADE,
      branch TEXT NOT NULL DEFAULT '',
      path TEXT NOT NULL,
      language TEXT,
      size INTEGER NOT NULL,
      mtime_ms INTEGER NOT NULL,
      hash TEXT NOT NULL,
      lines INTEGER NOT NULL,
      imports TEXT NOT NULL DEFAULT '[]',
      fallback TEXT,
      indexed_at INTEGER NOT NULL,
      UNIQUE (collection_id, branch, path)
    );

    CREATE TABLE code_chunks (
      id INTEGER PRIMARY KEY,
      file_id INTEGER NOT NULL REFERENCES code_files(id) ON DELETE CASCADE,
      collection_id INTEGER NOT NULL REFERENCES code_collections(id) ON DELETE CASCADE,
      ordinal INTEGER NOT NULL,
      kind TEXT NOT NULL,
      symbol TEXT,
      container TEXT,
      signature TEXT,
      start_line INTEGER NOT NULL,
      end_line INTEGER NOT NULL,
      text TEXT NOT NULL,
      provenance_id INTEGER REFERENCES code_provenance(id),
      UNIQUE (file_id, ordinal)
    );
    CREATE INDEX code_chunks_collection ON code_chunks(collection_id);
    CREATE INDEX code_chunks_symbol ON code_chunks(collection_id, symbol) WHERE symbol IS NOT NULL;

    CREATE TABLE code_refs (
      chunk_id INTEGER NOT NULL REFERENCES code_chunks(id) ON DELETE CASCADE,
      collection_id INTEGER NOT NULL,
      name TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('call','reference','import')),
      PRIMARY KEY (chunk_id, name, kind)
    ) WITHOUT ROWID;
    CREATE INDEX code_refs_name ON code_refs(collection_id, name);

    CREATE TABLE code_commits (
      collection_id INTEGER NOT NULL REFERENCES code_collections(id) ON DELETE CASCADE,
      branch TEXT NOT NULL,
      sha TEXT NOT NULL,
      parents TEXT NOT NULL DEFAULT '[]',
      author TEXT NOT NULL,
      authored_at INTEGER NOT NULL,
      subject TEXT NOT NULL,
      ordinal INTEGER NOT NULL,
      PRIMARY KEY (collection_id, branch, sha)
    ) WITHOUT ROWID;

    CREATE TABLE code_jobs (
      id TEXT PRIMARY KEY,
      collection_id INTEGER NOT NULL REFERENCES code_collections(id) ON DELETE CASCADE,
      action TEXT NOT NULL CHECK (action IN ('start','git_index')),
      state TEXT NOT NULL CHECK (state IN ('queued','running','done','failed','cancelled')),
      phase TEXT NOT NULL DEFAULT 'queued',
      files_seen INTEGER NOT NULL DEFAULT 0,
      files_total INTEGER NOT NULL DEFAULT 0,
      files_indexed INTEGER NOT NULL DEFAULT 0,
      files_unchanged INTEGER NOT NULL DEFAULT 0,
      files_removed INTEGER NOT NULL DEFAULT 0,
      files_skipped INTEGER NOT NULL DEFAULT 0,
      skipped_by_reason TEXT NOT NULL DEFAULT '{}',
      chunks INTEGER NOT NULL DEFAULT 0,
      lines INTEGER NOT NULL DEFAULT 0,
      errors TEXT NOT NULL DEFAULT '[]',
      error_count INTEGER NOT NULL DEFAULT 0,
      pid INTEGER,
      provenance_id INTEGER REFERENCES code_provenance(id),
      created_at INTEGER NOT NULL,
      started_at INTEGER,
      heartbeat_at INTEGER,
      finished_at INTEGER
    );
    CREATE INDEX code_jobs_collection ON code_jobs(collection_id, created_at);
    CREATE INDEX code_jobs_live ON code_jobs(state) WHERE state IN ('queued','running');

    CREATE TABLE code_searches (
      id INTEGER PRIMARY KEY,
      collection_id INTEGER REFERENCES code_collections(id) ON DELETE SET NULL,
      query TEXT NOT NULL,
      results INTEGER NOT NULL,
      provenance_id INTEGER REFERENCES code_provenance(id),
      created_at INTEGER NOT NULL
    );
    CREATE INDEX code_searches_recent ON code_searches(created_at);
  `,
};
