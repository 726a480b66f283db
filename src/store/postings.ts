// The durable side of the memory postings: one row per indexed item holding its term ids and
// their precomputed BM25 weights (a forward index), the collection's length statistics, and a
// change sequence that postings-cache.ts follows to keep its in-memory lists current.
import { termCounts } from './tokenize.js';
import type { SqlValue } from './types.js';

/** Synchronous statements on the store's one connection (inside its transactions). */
export interface SyncDb {
  all<T>(sql: string, params?: readonly SqlValue[]): T[];
  get<T>(sql: string, params?: readonly SqlValue[]): T | undefined;
  run(sql: string, params?: readonly SqlValue[]): void;
}

/** BM25 parameters, as FTS5 uses them. */
const K1 = 1.2;
const B = 0.75;
/** Column weights, as `bm25(memory_fts, 2.0, 1.0, 0.5)`: title, content, tags. */
const WEIGHTS = [2, 1, 0.5] as const;
/** Term weights are stored as integers: weight × IMPACT_SCALE, rounded (max 2.2 → 22,000). */
export const IMPACT_SCALE = 10_000;
/** Items indexed per chunk when many are dirty (a migration back-fill). */
const CHUNK = 2_000;

interface ItemText {
  rowid: number;
  title: string;
  content: string;
  tags: string;
  scope_key: string;
}

interface Analysed {
  item: ItemText;
  weights: Map<string, number>;
  length: number;
}

function analyse(item: ItemText): Analysed {
  const weights = new Map<string, number>();
  let length = 0;
  [item.title, item.content, item.tags].forEach((text, column) => {
    const { counts, length: n } = termCounts(text);
    length += n;
    const w = WEIGHTS[column] ?? 1;
    for (const [term, c] of counts) weights.set(term, (weights.get(term) ?? 0) + w * c);
  });
  return { item, weights, length };
}

/** BM25's saturated weight of a weighted frequency `tf` in a `length`-token item. */
const impactOf = (tf: number, length: number, avgdl: number): number =>
  Math.max(
    1,
    Math.round((IMPACT_SCALE * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avgdl))),
  );

/** Packs (term id, impact) pairs: n uint32 ids, then n uint16 impacts, little-endian. */
export function packTerms(ids: readonly number[], impacts: readonly number[]): Uint8Array {
  const out = new Uint8Array(ids.length * 6);
  const view = new DataView(out.buffer);
  ids.forEach((id, i) => view.setUint32(i * 4, id, true));
  impacts.forEach((v, i) => view.setUint16(ids.length * 4 + i * 2, Math.min(65_535, v), true));
  return out;
}

/** The inverse of `packTerms`. */
export function unpackTerms(blob: Uint8Array): { ids: Uint32Array; impacts: Uint16Array } {
  const n = Math.floor(blob.byteLength / 6);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const ids = new Uint32Array(n);
  const impacts = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    ids[i] = view.getUint32(i * 4, true);
    impacts[i] = view.getUint16(n * 4 + i * 2, true);
  }
  return { ids, impacts };
}

/** Takes items out of the index, leaving a tombstone row that caches replay. */
function unindex(db: SyncDb, rowids: readonly number[], seq: number): void {
  const old = db.get<{ n: number; length: number }>(
    `SELECT COUNT(*) AS n, COALESCE(SUM(length), 0) AS length FROM memory_postings_docs
     WHERE item_id IN (SELECT value FROM json_each(?)) AND terms IS NOT NULL`,
    [JSON.stringify(rowids)],
  ) ?? { n: 0, length: 0 };
  db.run(
    'UPDATE memory_postings_stats SET docs = docs - ?, total_length = total_length - ? WHERE id = 1',
    [old.n, old.length],
  );
  db.run(
    `UPDATE memory_postings_docs SET terms = NULL, scope_id = NULL, length = 0, seq = ?
     WHERE item_id IN (SELECT value FROM json_each(?))`,
    [seq, JSON.stringify(rowids)],
  );
}

/**
 * The ids of every term in `docs`, adding the new ones. Existing terms are only read, so a
 * save dirties no term pages once the vocabulary has settled.
 */
function termIds(db: SyncDb, docs: readonly Analysed[]): Map<string, number> {
  const terms = [...new Set(docs.flatMap((d) => [...d.weights.keys()]))];
  const ids = new Map(
    db
      .all<{ id: number; term: string }>(
        'SELECT id, term FROM memory_terms WHERE term IN (SELECT value FROM json_each(?))',
        [JSON.stringify(terms)],
      )
      .map((r) => [r.term, r.id]),
  );
  for (const term of terms) {
    if (ids.has(term)) continue;
    const row = db.get<{ id: number }>('INSERT INTO memory_terms(term) VALUES (?) RETURNING id', [
      term,
    ]);
    if (row === undefined) throw new Error('term insert returned nothing');
    ids.set(term, row.id);
  }
  return ids;
}

function scopeIdOf(db: SyncDb, key: string): number {
  const row = db.get<{ id: number }>(
    `INSERT INTO memory_scope_ids(key) VALUES (?)
     ON CONFLICT(key) DO UPDATE SET key = excluded.key RETURNING id`,
    [key],
  );
  if (row === undefined) throw new Error('scope id upsert returned nothing');
  return row.id;
}

/** Re-indexes one chunk of dirty items under change number `seq`. */
function flushChunk(db: SyncDb, rowids: readonly number[], seq: number): void {
  unindex(db, rowids, seq);
  const items = db.all<ItemText>(
    `SELECT rowid, title, content, tags, scope_key FROM memory_items
     WHERE rowid IN (SELECT value FROM json_each(?)) AND scope_key <> ''`,
    [JSON.stringify(rowids)],
  );
  const docs = items.map(analyse);
  const stats = db.get<{ docs: number; total: number }>(
    'SELECT docs, total_length AS total FROM memory_postings_stats WHERE id = 1',
  ) ?? { docs: 0, total: 0 };
  const added = docs.reduce((sum, d) => sum + d.length, 0);
  // Impacts use the average length at write time, this chunk included.
  const avgdl = Math.max(1, (stats.total + added) / Math.max(1, stats.docs + docs.length));
  const ids = termIds(db, docs);
  for (const doc of docs) {
    const terms = [...doc.weights];
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
          terms.map(([t]) => ids.get(t) ?? 0),
          terms.map(([, tf]) => impactOf(tf, doc.length, avgdl)),
        ),
      ],
    );
  }
  db.run(
    `UPDATE memory_postings_stats SET docs = docs + ?, total_length = total_length + ?, seq = ?
     WHERE id = 1`,
    [docs.length, added, seq],
  );
  db.run('DELETE FROM memory_postings_dirty WHERE item_id IN (SELECT value FROM json_each(?))', [
    JSON.stringify(rowids),
  ]);
}

/**
 * Brings the postings up to date with the items the triggers marked dirty, at most `max` of
 * them (a backlog left by writes that bypassed the store drains over later transactions;
 * until it has, searches rank with FTS5). Runs inside the write transaction that changed
 * them, so the index never lags a write the store committed.
 */
export function flushPostings(db: SyncDb, max = Number.POSITIVE_INFINITY): number {
  let done = 0;
  while (done < max) {
    const dirty = db.all<{ id: number }>(
      'SELECT item_id AS id FROM memory_postings_dirty ORDER BY item_id LIMIT ?',
      [CHUNK],
    );
    if (dirty.length === 0) return done;
    const seq =
      (db.get<{ seq: number }>('SELECT seq FROM memory_postings_stats WHERE id = 1')?.seq ?? 0) + 1;
    flushChunk(
      db,
      dirty.map((d) => d.id),
      seq,
    );
    done += dirty.length;
  }
  return done;
}
