// A corpus the BM25 postings engine indexes (memory items, code chunks): its tables, its field
// weights and BM25 parameters, its tokenizer and how to read the dirty documents. The engine
// (postings.ts, postings-df.ts, postings-cache.ts) is the same code for every corpus; only
// this differs.
import type { Bm25Params, Tokenizer } from '../search/index.js';
import { jsonIds, jsonTexts } from './json-lists.js';
import type { Dialect, Queryable } from './types.js';

/** One document to (re-)index: its id, its partition and its fields in weight order. */
export interface CorpusDoc {
  id: number;
  /** The partition it ranks in (a memory scope id, a code collection id). */
  partition: number;
  fields: readonly string[];
}

export interface CorpusTables {
  /** `(id INTEGER PRIMARY KEY, term TEXT UNIQUE, df INTEGER)`: term ids, folded df. */
  terms: string;
  /** The forward index: `(<doc> PRIMARY KEY, <partition>, length, seq, terms BLOB)`. */
  docs: string;
  /** Document-frequency deltas: `(seq INTEGER PRIMARY KEY, deltas BLOB)`. */
  df: string;
  /** One row `(id = 1, docs, total_length, seq, df_seq)`. */
  stats: string;
  /** Documents the triggers marked changed: has column `<doc>` (unique). */
  dirty: string;
}

export interface CorpusDescription {
  readonly name: string;
  readonly tables: CorpusTables;
  /** Column names: the document id (in docs and dirty), the partition (in docs). */
  readonly columns: { doc: string; partition: string };
  /**
   * The dirty table's column that orders marks, newest highest. When it is not the document
   * column, a write transaction indexes every document marked since it began, however many
   * (`ownMarks`), before a bounded share of older backlog.
   */
  readonly dirtyOrder: string;
  readonly fieldWeights: readonly number[];
  /** BM25 k1 and b of the impacts (default FTS5's 1.2 and 0.75). */
  readonly bm25?: Bm25Params;
  readonly tokenizer: Tokenizer;
  /**
   * The documents among `ids` that should be indexed, with their fields and partition; ids not
   * returned (deleted, or not searchable any more) leave the index.
   */
  load(db: Queryable, ids: readonly number[]): Promise<CorpusDoc[]>;
}

/** The statements the engine runs for one corpus. */
export interface CorpusSql {
  selectDocs: string;
  clearDocs: string;
  upsertDoc: string;
  changedDocs: string;
  partitionDocs: string;
  selectTerms: string;
  insertTerms: string;
  termIdsOf: string;
  liveDf: string;
  addDf: string;
  selectStats: string;
  cacheStats: string;
  updateStats: string;
  updateDfSeq: string;
  insertDeltas: string;
  pendingDeltas: string;
  allDeltas: string;
  deltasAfter: string;
  deleteDeltas: string;
  nextDirty: string;
  nextDirtyAfter: string;
  lastMark: string;
  anyDirty: string;
  clearDirty: string;
}

export interface PostingsCorpus extends CorpusDescription {
  readonly ownMarks: boolean;
  /** The statements in each dialect (`sql[db.dialect]`). */
  readonly sql: Readonly<Record<Dialect, CorpusSql>>;
}

function sqlOf(d: CorpusDescription, dialect: Dialect): CorpusSql {
  const IN = jsonIds(dialect);
  const TERMS = jsonTexts(dialect);
  const { terms, docs, df, stats, dirty } = d.tables;
  const { doc, partition } = d.columns;
  const order = d.dirtyOrder;
  return {
    selectDocs: `SELECT length, terms FROM ${docs} WHERE ${doc} IN ${IN}`,
    clearDocs: `UPDATE ${docs} SET terms = NULL, ${partition} = NULL, length = 0, seq = ?
     WHERE ${doc} IN ${IN}`,
    upsertDoc: `INSERT INTO ${docs}(${doc}, ${partition}, length, seq, terms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(${doc}) DO UPDATE SET ${partition} = excluded.${partition},
         length = excluded.length, seq = excluded.seq, terms = excluded.terms`,
    changedDocs: `SELECT ${doc} AS item, ${partition} AS scope, terms FROM ${docs}
           WHERE seq > ? ORDER BY seq LIMIT ?`,
    partitionDocs: `SELECT ${doc} AS item, terms FROM ${docs} WHERE ${partition} = ? AND terms IS NOT NULL`,
    selectTerms: `SELECT id, term FROM ${terms} WHERE term IN ${TERMS}`,
    // `WHERE true`: SQLite's parser needs it before ON CONFLICT after a SELECT.
    insertTerms: `INSERT INTO ${terms}(term) SELECT value FROM ${TERMS} AS t WHERE true
       ON CONFLICT(term) DO NOTHING RETURNING id, term`,
    termIdsOf: `SELECT id, term FROM ${terms} WHERE term IN ${TERMS}`,
    liveDf: `SELECT id, df FROM ${terms} WHERE df <> 0`,
    addDf: `UPDATE ${terms} SET df = df + ? WHERE id = ?`,
    selectStats: `SELECT docs, total_length AS total, seq FROM ${stats} WHERE id = 1`,
    cacheStats: `SELECT seq, df_seq AS "dfSeq", docs FROM ${stats} WHERE id = 1`,
    // An upsert: PostgreSQL's baseline has the tables but not the row a migration inserted.
    updateStats: `INSERT INTO ${stats}(id, docs, total_length, seq, df_seq) VALUES (1, ?, ?, ?, 0)
       ON CONFLICT(id) DO UPDATE SET docs = excluded.docs, total_length = excluded.total_length,
         seq = excluded.seq`,
    updateDfSeq: `UPDATE ${stats} SET df_seq = ? WHERE id = 1`,
    insertDeltas: `INSERT INTO ${df}(seq, deltas) VALUES (?, ?)`,
    pendingDeltas: `SELECT COUNT(*) AS n, MAX(seq) AS last FROM ${df}`,
    allDeltas: `SELECT deltas FROM ${df}`,
    deltasAfter: `SELECT deltas FROM ${df} WHERE seq > ? ORDER BY seq`,
    deleteDeltas: `DELETE FROM ${df}`,
    nextDirty: `SELECT ${doc} AS id FROM ${dirty} ORDER BY ${order} LIMIT ?`,
    nextDirtyAfter: `SELECT ${doc} AS id FROM ${dirty} WHERE ${order} > ? ORDER BY ${order} LIMIT ?`,
    lastMark: `SELECT MAX(${order}) AS last FROM ${dirty}`,
    anyDirty: `SELECT 1 AS dirty FROM ${dirty} LIMIT 1`,
    clearDirty: `DELETE FROM ${dirty} WHERE ${doc} IN ${IN}`,
  };
}

/** A corpus the engine can run: the description plus its statements, built once. */
export function defineCorpus(description: CorpusDescription): PostingsCorpus {
  return {
    ...description,
    ownMarks: description.dirtyOrder !== description.columns.doc,
    sql: { sqlite: sqlOf(description, 'sqlite'), postgres: sqlOf(description, 'postgres') },
  };
}
