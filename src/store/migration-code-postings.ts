// Migration 21: the code corpus of the postings engine (postings-corpus.ts), shaped like
// memory's (migration 14) but partitioned by collection id, and the bookkeeping of chunk
// vectors. Triggers only mark changed chunks dirty (an ordered mark, so a write transaction
// indexes exactly what it changed: postings-engine.ts); the store re-indexes them before the
// transaction commits. A chunk's vector is dropped when its text, symbol, signature or
// collection changes, and with the chunk (cascade); the vec0 tables, named by dimension, are
// created with their clean-up trigger on first use (createCodeVecSql).
import type { Migration } from './migration-types.js';

/** Marks a chunk as the newest change (delete + insert: an outer statement's OR IGNORE, which
 * overrides a trigger's own conflict policy, cannot keep an older mark). */
const MARK = (id: string): string =>
  `DELETE FROM code_postings_dirty WHERE chunk_id = ${id};
   INSERT INTO code_postings_dirty(chunk_id) VALUES (${id})`;

/** The columns whose change re-indexes a chunk (the path comes from its file). */
const INDEXED = 'symbol, signature, text, file_id, collection_id';
/** The columns whose change makes a chunk's vector stale. */
const EMBEDDED = 'symbol, signature, text, collection_id';

/** The vec0 table of `dims`-d chunk vectors: cosine, partitioned by collection. */
export const codeVecTable = (dims: number): string => `code_vec_p${Math.trunc(dims)}`;

/**
 * Creates (if missing) the vec0 table for `dims`-d vectors and the trigger that deletes a
 * vector from it when its code_vectors row goes (chunk deleted or changed, vector replaced).
 */
export const createCodeVecSql = (dims: number): string[] => [
  `CREATE VIRTUAL TABLE IF NOT EXISTS ${codeVecTable(dims)} USING vec0(
    embedding float[${dims}] distance_metric=cosine, collection_id integer partition key,
    chunk_size=256)`,
  `CREATE TRIGGER IF NOT EXISTS ${codeVecTable(dims)}_gc AFTER DELETE ON code_vectors
    WHEN old.dims = ${dims} BEGIN
    DELETE FROM ${codeVecTable(dims)} WHERE rowid = old.chunk_id; END`,
];

export const CODE_POSTINGS_MIGRATION: Migration = {
  version: 21,
  name: 'code chunk postings and vectors',
  sql: `
    CREATE TABLE code_terms (
      id INTEGER PRIMARY KEY,
      term TEXT NOT NULL UNIQUE,
      df INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE code_postings_df (seq INTEGER PRIMARY KEY, deltas BLOB NOT NULL);
    CREATE TABLE code_postings_docs (
      chunk_id INTEGER PRIMARY KEY,
      collection_id INTEGER,
      length INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      terms BLOB
    );
    CREATE INDEX code_postings_docs_collection ON code_postings_docs(collection_id)
      WHERE terms IS NOT NULL;
    CREATE INDEX code_postings_docs_seq ON code_postings_docs(seq);
    CREATE TABLE code_postings_stats (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      docs INTEGER NOT NULL,
      total_length INTEGER NOT NULL,
      seq INTEGER NOT NULL,
      df_seq INTEGER NOT NULL
    );
    INSERT INTO code_postings_stats(id, docs, total_length, seq, df_seq) VALUES (1, 0, 0, 0, 0);
    CREATE TABLE code_postings_dirty (
      seq INTEGER PRIMARY KEY,
      chunk_id INTEGER NOT NULL UNIQUE
    );
    CREATE TRIGGER code_postings_ai AFTER INSERT ON code_chunks BEGIN ${MARK('new.id')}; END;
    CREATE TRIGGER code_postings_ad AFTER DELETE ON code_chunks BEGIN ${MARK('old.id')}; END;
    CREATE TRIGGER code_postings_au AFTER UPDATE OF ${INDEXED} ON code_chunks BEGIN
      ${MARK('old.id')}; ${MARK('new.id')};
    END;
    CREATE TRIGGER code_postings_path AFTER UPDATE OF path ON code_files BEGIN
      DELETE FROM code_postings_dirty
        WHERE chunk_id IN (SELECT id FROM code_chunks WHERE file_id = new.id);
      INSERT INTO code_postings_dirty(chunk_id) SELECT id FROM code_chunks WHERE file_id = new.id;
    END;
    INSERT INTO code_postings_dirty(chunk_id) SELECT id FROM code_chunks ORDER BY id;

    CREATE TABLE code_vectors (
      chunk_id INTEGER PRIMARY KEY REFERENCES code_chunks(id) ON DELETE CASCADE,
      collection_id INTEGER NOT NULL,
      model TEXT NOT NULL,
      dims INTEGER NOT NULL,
      embedded_at INTEGER NOT NULL
    );
    CREATE INDEX code_vectors_collection ON code_vectors(collection_id, model);
    CREATE TRIGGER code_vectors_stale AFTER UPDATE OF ${EMBEDDED} ON code_chunks BEGIN
      DELETE FROM code_vectors WHERE chunk_id = old.id;
    END;
  `,
};
