// The durable side of the memory postings: one row per indexed item holding its term ids and
// their precomputed BM25 weights (a forward index), the collection's length statistics and
// document-frequency deltas (postings-df.ts), and a change sequence that postings-cache.ts
// follows to keep its in-memory lists current.
import {
  impactOf,
  packTerms,
  proseTokenizer,
  unpackTerms,
  weightedTerms,
  type WeightedTerms,
} from '../search/index.js';
import type { SyncDb } from './migration-types.js';
import { foldDeltas, recordDeltas } from './postings-df.js';

/** Column weights, as `bm25(memory_fts, 2.0, 1.0, 0.5)`: title, content, tags. */
const WEIGHTS = [2, 1, 0.5] as const;
/** Items indexed per chunk when many are dirty (a migration back-fill). */
const CHUNK = 2_000;

interface ItemText {
  rowid: number;
  title: string;
  content: string;
  tags: string;
  scope_key: string;
}

interface Analysed extends WeightedTerms {
  item: ItemText;
}

function analyse(item: ItemText): Analysed {
  return { item, ...weightedTerms(proseTokenizer, [item.title, item.content, item.tags], WEIGHTS) };
}

/**
 * Takes items out of the index, leaving a tombstone row that caches replay; their terms'
 * document counts go down in `df`. Returns how many live rows it removed and their length.
 */
function unindex(
  db: SyncDb,
  rowids: readonly number[],
  seq: number,
  df: Map<number, number>,
): { docs: number; length: number } {
  const rows = db.all<{ length: number; terms: Uint8Array | null }>(
    'SELECT length, terms FROM memory_postings_docs WHERE item_id IN (SELECT value FROM json_each(?))',
    [JSON.stringify(rowids)],
  );
  if (rows.length === 0) return { docs: 0, length: 0 }; // new items: nothing to take out
  let docs = 0;
  let length = 0;
  for (const row of rows) {
    if (row.terms === null) continue;
    docs += 1;
    length += row.length;
    for (const id of unpackTerms(row.terms).ids) df.set(id, (df.get(id) ?? 0) - 1);
  }
  db.run(
    `UPDATE memory_postings_docs SET terms = NULL, scope_id = NULL, length = 0, seq = ?
     WHERE item_id IN (SELECT value FROM json_each(?))`,
    [seq, JSON.stringify(rowids)],
  );
  return { docs, length };
}

/** Committed term ids are immutable, so each connection remembers the ones it has seen. */
const MAX_KNOWN_TERMS = 500_000;

/**
 * Term → id lookups for one connection: ids read or added by the running transaction stay
 * pending until the store reports its commit (a rolled-back id may be reused for another term).
 */
export class TermIds {
  readonly #known = new Map<string, number>();
  #pending = new Map<string, number>();

  /** The ids of `terms`, adding the new ones. Existing terms are only read (no page writes). */
  resolve(db: SyncDb, terms: readonly string[]): Map<string, number> {
    const ids = new Map<string, number>();
    const unknown: string[] = [];
    for (const t of terms) {
      const id = this.#known.get(t) ?? this.#pending.get(t);
      if (id === undefined) unknown.push(t);
      else ids.set(t, id);
    }
    if (unknown.length === 0) return ids;
    for (const r of db.all<{ id: number; term: string }>(
      'SELECT id, term FROM memory_terms WHERE term IN (SELECT value FROM json_each(?))',
      [JSON.stringify(unknown)],
    ))
      ids.set(r.term, r.id);
    for (const term of unknown) {
      if (!ids.has(term)) {
        const row = db.get<{ id: number }>(
          'INSERT INTO memory_terms(term) VALUES (?) RETURNING id',
          [term],
        );
        if (row === undefined) throw new Error('term insert returned nothing');
        ids.set(term, row.id);
      }
      this.#pending.set(term, ids.get(term) ?? 0);
    }
    return ids;
  }

  committed(): void {
    if (this.#known.size + this.#pending.size > MAX_KNOWN_TERMS) this.#known.clear();
    for (const [t, id] of this.#pending) this.#known.set(t, id);
    this.#pending = new Map();
  }

  rolledBack(): void {
    this.#pending = new Map();
  }
}

function scopeIdOf(db: SyncDb, key: string): number {
  const row =
    db.get<{ id: number }>('SELECT id FROM memory_scope_ids WHERE key = ?', [key]) ??
    db.get<{ id: number }>('INSERT INTO memory_scope_ids(key) VALUES (?) RETURNING id', [key]);
  if (row === undefined) throw new Error('scope id insert returned nothing');
  return row.id;
}

/** Re-indexes one chunk of dirty items under the next change number. */
function flushChunk(db: SyncDb, rowids: readonly number[], terms: TermIds): void {
  const stats = db.get<{ docs: number; total: number; seq: number }>(
    'SELECT docs, total_length AS total, seq FROM memory_postings_stats WHERE id = 1',
  ) ?? { docs: 0, total: 0, seq: 0 };
  const seq = stats.seq + 1;
  const df = new Map<number, number>();
  const removed = unindex(db, rowids, seq, df);
  const items = db.all<ItemText>(
    `SELECT rowid, title, content, tags, scope_key FROM memory_items
     WHERE rowid IN (SELECT value FROM json_each(?)) AND scope_key <> ''`,
    [JSON.stringify(rowids)],
  );
  const docs = items.map(analyse);
  const count = stats.docs - removed.docs + docs.length;
  const total = stats.total - removed.length + docs.reduce((sum, d) => sum + d.length, 0);
  // Impacts use the average length at write time, this chunk included.
  const avgdl = Math.max(1, total / Math.max(1, count));
  const ids = terms.resolve(db, [...new Set(docs.flatMap((d) => [...d.weights.keys()]))]);
  for (const doc of docs) {
    const pairs = [...doc.weights];
    for (const [t] of pairs) {
      const id = ids.get(t) ?? 0;
      df.set(id, (df.get(id) ?? 0) + 1);
    }
    db.run(
      `INSERT INTO memory_postings_docs(item_id, scope_id, length, seq, terms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(item_id) DO UPDATE SET scope_id = excluded.scope_id, length = excluded.length,
         seq = excluded.seq, terms = excluded.terms`,
      [
        doc.item.rowid,
        scopeIdOf(db, doc.item.scope_key),
        doc.length,
        seq,
        packTerms(
          pairs.map(([t]) => ids.get(t) ?? 0),
          pairs.map(([, tf]) => impactOf(tf, doc.length, avgdl)),
        ),
      ],
    );
  }
  db.run('UPDATE memory_postings_stats SET docs = ?, total_length = ?, seq = ? WHERE id = 1', [
    count,
    total,
    seq,
  ]);
  recordDeltas(db, seq, df);
  db.run('DELETE FROM memory_postings_dirty WHERE item_id IN (SELECT value FROM json_each(?))', [
    JSON.stringify(rowids),
  ]);
}

/**
 * Brings the postings up to date with the items the triggers marked dirty, at most `max` of
 * them. Runs inside the write transaction that changed them, so the index never lags a write
 * the store committed; a backlog (items that predate migration 14, writes that bypassed the
 * store) drains over later transactions and the store's background drain, and until it has,
 * searches rank with FTS5.
 */
export function flushPostings(db: SyncDb, options: { max?: number; terms?: TermIds } = {}): number {
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const terms = options.terms ?? new TermIds();
  let done = 0;
  while (done < max) {
    const dirty = db.all<{ id: number }>(
      'SELECT item_id AS id FROM memory_postings_dirty ORDER BY item_id LIMIT ?',
      [Math.min(CHUNK, max - done)],
    );
    if (dirty.length === 0) break;
    flushChunk(
      db,
      dirty.map((d) => d.id),
      terms,
    );
    done += dirty.length;
  }
  if (done > 0) foldDeltas(db);
  return done;
}
