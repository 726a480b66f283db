// Migration 14: BM25 postings beside FTS5 (postings.ts, postings-cache.ts). Triggers only mark changed
// items dirty (plain SQL, so any connection may write memory_items); the store re-indexes
// them before its write transaction commits. Existing items are only marked here: indexing
// 100k of them inside the opening transaction took tens of seconds while every other process
// opening the file waited; the store's background drain indexes them in small transactions
// instead (searches rank with FTS5 until it has).
import type { Migration } from './migration-types.js';

const MARK = (row: string): string =>
  `INSERT OR IGNORE INTO memory_postings_dirty(item_id) VALUES (${row}.rowid)`;

export const POSTINGS_MIGRATION: Migration = {
  version: 14,
  name: 'memory postings beside FTS5',
  sql: `
    CREATE TABLE memory_terms (
      id INTEGER PRIMARY KEY,
      term TEXT NOT NULL UNIQUE,
      df INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE memory_postings_df (seq INTEGER PRIMARY KEY, deltas BLOB NOT NULL);
    CREATE TABLE memory_scope_ids (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
    CREATE TABLE memory_postings_docs (
      item_id INTEGER PRIMARY KEY,
      scope_id INTEGER,
      length INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      terms BLOB
    );
    CREATE INDEX memory_postings_docs_scope ON memory_postings_docs(scope_id)
      WHERE terms IS NOT NULL;
    CREATE INDEX memory_postings_docs_seq ON memory_postings_docs(seq);
    CREATE TABLE memory_postings_stats (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      docs INTEGER NOT NULL,
      total_length INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      df_seq INTEGER NOT NULL
    );
    INSERT INTO memory_postings_stats(id, docs, total_length, seq, df_seq) VALUES (1, 0, 0, 0, 0);
    CREATE TABLE memory_postings_dirty (item_id INTEGER PRIMARY KEY);
    CREATE TRIGGER memory_postings_ai AFTER INSERT ON memory_items BEGIN ${MARK('new')}; END;
    CREATE TRIGGER memory_postings_ad AFTER DELETE ON memory_items BEGIN ${MARK('old')}; END;
    CREATE TRIGGER memory_postings_au AFTER UPDATE OF title, content, tags, kind, tenant_id,
      team_id, agent_id, lifecycle, deleted_at ON memory_items BEGIN ${MARK('new')}; END;
    INSERT INTO memory_postings_dirty(item_id) SELECT rowid FROM memory_items WHERE scope_key <> '';
  `,
};
