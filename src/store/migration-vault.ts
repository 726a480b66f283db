// Migration 24: the memory vault. Collections of markdown (a vault's content roots and the
// internal `_clawmem`), documents with their lifecycle columns, fragments (heading, list, code,
// paragraph and one whole-document fragment), the vault corpus of the postings engine (ordered
// dirty marks like code's: a sync is searchable when it commits) and fragment vectors (vec0
// tables per dimension, created on first use by createVaultVecSql). Rows are never deleted by
// the domain: documents are deactivated or archived.
import type { Migration } from './migration-types.js';

/** Marks a fragment as the newest change (delete + insert keeps only the newest mark). */
const MARK = (id: string): string =>
  `DELETE FROM vault_postings_dirty WHERE fragment_id = ${id};
   INSERT INTO vault_postings_dirty(fragment_id) VALUES (${id})`;

/** Marks every fragment of a document (its title, state or collection changed). */
const MARK_DOC = (id: string): string =>
  `DELETE FROM vault_postings_dirty
     WHERE fragment_id IN (SELECT id FROM vault_fragments WHERE document_id = ${id});
   INSERT INTO vault_postings_dirty(fragment_id)
     SELECT id FROM vault_fragments WHERE document_id = ${id} ORDER BY id`;

/** The vec0 table of `dims`-d fragment vectors: cosine, partitioned by collection. */
export const vaultVecTable = (dims: number): string => `vault_vec_p${Math.trunc(dims)}`;

/** Creates (if missing) the vec0 table for `dims`-d vectors and its clean-up trigger. */
export const createVaultVecSql = (dims: number): string[] => [
  `CREATE VIRTUAL TABLE IF NOT EXISTS ${vaultVecTable(dims)} USING vec0(
    embedding float[${dims}] distance_metric=cosine, collection_id integer partition key,
    chunk_size=256)`,
  `CREATE TRIGGER IF NOT EXISTS ${vaultVecTable(dims)}_gc AFTER DELETE ON vault_vectors
    WHEN old.dims = ${dims} BEGIN
    DELETE FROM ${vaultVecTable(dims)} WHERE rowid = old.fragment_id; END`,
];

export const VAULT_MIGRATION: Migration = {
  version: 24,
  name: 'memory vault',
  sql: `
    CREATE TABLE vault_collections (
      id INTEGER PRIMARY KEY,
      vault TEXT NOT NULL,
      name TEXT NOT NULL,
      content_root TEXT NOT NULL DEFAULT '',
      pattern TEXT NOT NULL DEFAULT '**/*.md',
      created_at INTEGER NOT NULL,
      last_synced_at INTEGER,
      UNIQUE (vault, name)
    );
    CREATE TABLE vault_documents (
      id INTEGER PRIMARY KEY,
      vault TEXT NOT NULL,
      collection_id INTEGER NOT NULL REFERENCES vault_collections(id),
      path TEXT NOT NULL,
      docid TEXT NOT NULL,
      title TEXT NOT NULL DEFAULT '',
      content_type TEXT NOT NULL DEFAULT 'note',
      frontmatter TEXT NOT NULL DEFAULT '{}',
      content TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      size INTEGER NOT NULL DEFAULT 0,
      mtime INTEGER NOT NULL DEFAULT 0,
      lines INTEGER NOT NULL DEFAULT 0,
      words INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      modified_at INTEGER NOT NULL,
      authored_at INTEGER,
      origin TEXT NOT NULL CHECK (origin IN ('fs','api')),
      active INTEGER NOT NULL DEFAULT 1,
      deactivated_at INTEGER,
      deactivation_reason TEXT,
      pinned INTEGER NOT NULL DEFAULT 0,
      snoozed_until INTEGER,
      archived_at INTEGER,
      access_count INTEGER NOT NULL DEFAULT 0,
      last_accessed_at INTEGER,
      confidence REAL NOT NULL DEFAULT 0.5,
      quality_score REAL NOT NULL DEFAULT 0.5,
      canonical INTEGER NOT NULL DEFAULT 0,
      superseded_by INTEGER REFERENCES vault_documents(id),
      UNIQUE (collection_id, path),
      UNIQUE (vault, docid)
    );
    CREATE INDEX vault_documents_vault ON vault_documents(vault, active, collection_id);
    CREATE INDEX vault_documents_time
      ON vault_documents(vault, COALESCE(authored_at, modified_at), id);
    CREATE TABLE vault_fragments (
      id INTEGER PRIMARY KEY,
      document_id INTEGER NOT NULL REFERENCES vault_documents(id) ON DELETE CASCADE,
      ordinal INTEGER NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('heading','list','code','paragraph','whole')),
      heading_path TEXT NOT NULL DEFAULT '',
      start_line INTEGER NOT NULL,
      end_line INTEGER NOT NULL,
      text TEXT NOT NULL,
      UNIQUE (document_id, ordinal)
    );

    CREATE TABLE vault_terms (
      id INTEGER PRIMARY KEY,
      term TEXT NOT NULL UNIQUE,
      df INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE vault_postings_df (seq INTEGER PRIMARY KEY, deltas BLOB NOT NULL);
    CREATE TABLE vault_postings_docs (
      fragment_id INTEGER PRIMARY KEY,
      collection_id INTEGER,
      length INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      terms BLOB
    );
    CREATE INDEX vault_postings_docs_collection ON vault_postings_docs(collection_id)
      WHERE terms IS NOT NULL;
    CREATE INDEX vault_postings_docs_seq ON vault_postings_docs(seq);
    CREATE TABLE vault_postings_stats (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      docs INTEGER NOT NULL,
      total_length INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      df_seq INTEGER NOT NULL
    );
    INSERT INTO vault_postings_stats(id, docs, total_length, seq, df_seq) VALUES (1, 0, 0, 0, 0);
    CREATE TABLE vault_postings_dirty (
      seq INTEGER PRIMARY KEY,
      fragment_id INTEGER NOT NULL UNIQUE
    );
    CREATE TRIGGER vault_postings_ai AFTER INSERT ON vault_fragments BEGIN ${MARK('new.id')}; END;
    CREATE TRIGGER vault_postings_ad AFTER DELETE ON vault_fragments BEGIN ${MARK('old.id')}; END;
    CREATE TRIGGER vault_postings_au
      AFTER UPDATE OF text, heading_path, document_id ON vault_fragments BEGIN
      ${MARK('old.id')}; ${MARK('new.id')};
    END;
    CREATE TRIGGER vault_postings_doc
      AFTER UPDATE OF title, active, collection_id ON vault_documents BEGIN
      ${MARK_DOC('new.id')};
    END;

    CREATE TABLE vault_vectors (
      fragment_id INTEGER PRIMARY KEY REFERENCES vault_fragments(id) ON DELETE CASCADE,
      collection_id INTEGER NOT NULL,
      model TEXT NOT NULL,
      dims INTEGER NOT NULL,
      embedded_at INTEGER NOT NULL
    );
    CREATE INDEX vault_vectors_model ON vault_vectors(model, collection_id);
    CREATE TRIGGER vault_vectors_stale
      AFTER UPDATE OF text, heading_path, document_id ON vault_fragments BEGIN
      DELETE FROM vault_vectors WHERE fragment_id = old.id;
    END;
    CREATE TRIGGER vault_vectors_moved AFTER UPDATE OF collection_id ON vault_documents BEGIN
      DELETE FROM vault_vectors
        WHERE fragment_id IN (SELECT id FROM vault_fragments WHERE document_id = new.id);
    END;
  `,
};
