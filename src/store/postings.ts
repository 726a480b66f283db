// The durable side of the BM25 postings, for any corpus (postings-corpus.ts): one row per
// indexed document holding its term ids and their precomputed BM25 weights (a forward index),
// the corpus's length statistics and document-frequency deltas (postings-df.ts), and a change
// sequence that postings-cache.ts follows to keep its in-memory lists current. Runs over any
// store connection (`Queryable`), the statements chosen by its dialect.
import { impactOf, packTerms, unpackTerms, weightedTerms } from '../search/index.js';
import type { CorpusDoc, PostingsCorpus } from './postings-corpus.js';
import { foldDeltas, recordDeltas } from './postings-df.js';
import type { Queryable } from './types.js';

/** Documents indexed per chunk when many are dirty (a migration back-fill). */
const CHUNK = 2_000;

/**
 * Takes documents out of the index, leaving a tombstone row that caches replay; their terms'
 * document counts go down in `df`. Returns how many live rows it removed and their length.
 */
async function unindex(
  db: Queryable,
  corpus: PostingsCorpus,
  rowids: readonly number[],
  seq: number,
  df: Map<number, number>,
): Promise<{ docs: number; length: number }> {
  const sql = corpus.sql[db.dialect];
  const rows = await db.all<{ length: number; terms: Uint8Array | null }>(sql.selectDocs, [
    JSON.stringify(rowids),
  ]);
  if (rows.length === 0) return { docs: 0, length: 0 }; // new documents: nothing to take out
  let docs = 0;
  let length = 0;
  for (const row of rows) {
    if (row.terms === null) continue;
    docs += 1;
    length += row.length;
    for (const id of unpackTerms(row.terms).ids) df.set(id, (df.get(id) ?? 0) - 1);
  }
  await db.run(sql.clearDocs, [seq, JSON.stringify(rowids)]);
  return { docs, length };
}

/** Committed term ids are immutable, so each store remembers the ones it has seen. */
const MAX_KNOWN_TERMS = 500_000;

/**
 * Term → id lookups for one store and corpus. Ids read or added by a write transaction stay
 * in its own batch (`begin`) until the store reports its commit: a rolled-back id may be
 * reused for another term, and on PostgreSQL several write transactions run at once.
 */
export class TermIds {
  readonly #known = new Map<string, number>();

  constructor(readonly corpus: PostingsCorpus) {}

  /** The lookups of one write transaction. */
  begin(): TermBatch {
    return new TermBatch(this, this.#known);
  }

  /** Makes a committed batch's ids known to every later transaction. */
  commit(pending: ReadonlyMap<string, number>): void {
    if (this.#known.size + pending.size > MAX_KNOWN_TERMS) this.#known.clear();
    for (const [t, id] of pending) this.#known.set(t, id);
  }
}

/** One write transaction's term lookups: committed ids plus the ones it read or added. */
export class TermBatch {
  readonly #pending = new Map<string, number>();

  constructor(
    readonly terms: TermIds,
    readonly known: ReadonlyMap<string, number>,
  ) {}

  get corpus(): PostingsCorpus {
    return this.terms.corpus;
  }

  /** The ids of `terms`, adding the new ones. Existing terms are only read (no page writes). */
  async resolve(db: Queryable, terms: readonly string[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const unknown: string[] = [];
    for (const t of terms) {
      const id = this.known.get(t) ?? this.#pending.get(t);
      if (id === undefined) unknown.push(t);
      else ids.set(t, id);
    }
    if (unknown.length === 0) return ids;
    const sql = this.corpus.sql[db.dialect];
    for (const r of await db.all<{ id: number; term: string }>(sql.selectTerms, [
      JSON.stringify(unknown),
    ]))
      ids.set(r.term, r.id);
    const fresh = unknown.filter((t) => !ids.has(t));
    if (fresh.length > 0)
      for (const r of await db.all<{ id: number; term: string }>(sql.insertTerms, [
        JSON.stringify(fresh),
      ]))
        ids.set(r.term, r.id);
    for (const term of unknown) {
      const id = ids.get(term);
      // Only a concurrent writer's uncommitted term (PostgreSQL aborts that transaction first).
      if (id === undefined) throw new Error(`term insert returned nothing for ${term}`);
      this.#pending.set(term, id);
    }
    return ids;
  }

  /** Call once the transaction committed. */
  committed(): void {
    this.terms.commit(this.#pending);
  }
}

interface Analysed {
  doc: CorpusDoc;
  weights: Map<string, number>;
  length: number;
}

/** Re-indexes one chunk of dirty documents under the next change number. */
async function flushChunk(
  db: Queryable,
  rowids: readonly number[],
  terms: TermBatch,
): Promise<void> {
  const { corpus } = terms;
  const sql = corpus.sql[db.dialect];
  const stats = (await db.get<{ docs: number; total: number; seq: number }>(sql.selectStats)) ?? {
    docs: 0,
    total: 0,
    seq: 0,
  };
  const seq = stats.seq + 1;
  const df = new Map<number, number>();
  const removed = await unindex(db, corpus, rowids, seq, df);
  const docs = (await corpus.load(db, rowids)).map((doc): Analysed => ({
    doc,
    ...weightedTerms(corpus.tokenizer, doc.fields, corpus.fieldWeights),
  }));
  const count = stats.docs - removed.docs + docs.length;
  const total = stats.total - removed.length + docs.reduce((sum, d) => sum + d.length, 0);
  // Impacts use the average length at write time, this chunk included.
  const avgdl = Math.max(1, total / Math.max(1, count));
  const ids = await terms.resolve(db, [...new Set(docs.flatMap((d) => [...d.weights.keys()]))]);
  for (const { doc, weights, length } of docs) {
    const pairs = [...weights];
    for (const [t] of pairs) {
      const id = ids.get(t) ?? 0;
      df.set(id, (df.get(id) ?? 0) + 1);
    }
    await db.run(sql.upsertDoc, [
      doc.id,
      doc.partition,
      length,
      seq,
      packTerms(
        pairs.map(([t]) => ids.get(t) ?? 0),
        pairs.map(([, tf]) => impactOf(tf, length, avgdl, corpus.bm25)),
      ),
    ]);
  }
  await db.run(sql.updateStats, [count, total, seq]);
  await recordDeltas(db, corpus, seq, df);
  await db.run(sql.clearDirty, [JSON.stringify(rowids)]);
}

export interface FlushOptions {
  /** Documents to index at most (default: all that are dirty). */
  max?: number;
  /** Only marks newer than this (the corpus's `dirtyOrder`; see `lastMark`). */
  after?: number;
}

/**
 * Brings the corpus's postings up to date with the documents the triggers marked dirty, at
 * most `max` of them (oldest marks first). Runs inside the write transaction that changed
 * them, so the index never lags a write the store committed; a backlog (documents that
 * predate the corpus's migration, writes that bypassed the store) drains over later
 * transactions and the store's background drain. Returns how many it indexed.
 */
export async function flushPostings(
  db: Queryable,
  terms: TermBatch,
  options: FlushOptions = {},
): Promise<number> {
  const sql = terms.corpus.sql[db.dialect];
  const max = options.max ?? Number.POSITIVE_INFINITY;
  let done = 0;
  while (done < max) {
    const limit = Math.min(CHUNK, max - done);
    const dirty =
      options.after === undefined
        ? await db.all<{ id: number }>(sql.nextDirty, [limit])
        : await db.all<{ id: number }>(sql.nextDirtyAfter, [options.after, limit]);
    if (dirty.length === 0) break;
    await flushChunk(
      db,
      dirty.map((d) => d.id),
      terms,
    );
    done += dirty.length;
  }
  if (done > 0) await foldDeltas(db, terms.corpus);
  return done;
}

/** The newest mark in the corpus's dirty table (0 when none): a transaction's watermark. */
export async function lastMark(db: Queryable, corpus: PostingsCorpus): Promise<number> {
  return (await db.get<{ last: number | null }>(corpus.sql[db.dialect].lastMark))?.last ?? 0;
}
