// Exact cosine over float32 BYTEA vectors, computed in the store process: the PostgreSQL path
// when the server has no pgvector. A KNN pass pages through one partition's rows by rowid, so
// memory stays bounded by one page plus the `k` best whatever the partition's size.
import type { Queryable, SqlValue } from '../types.js';
import { fromBlob, mergeNearest, type VecHit } from '../vector-tables.js';

/** Rows read per page of a scan. */
const PAGE = 1_000;

/** Cosine distance (1 − cosine similarity), as sqlite-vec and pgvector define it. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return 1 - dot / Math.sqrt(na * nb);
}

type Stored = { rowid: number; embedding: Uint8Array };

/**
 * The `k` rows of `table` nearest `v` (closest first, ties by rowid) among those `where`
 * (a `WHERE …` over the table, or '') admits, scanning page by page.
 */
export async function exactKnn(
  db: Queryable,
  table: string,
  v: Float32Array,
  k: number,
  where: string,
  params: readonly SqlValue[],
): Promise<VecHit[]> {
  const page = `SELECT rowid, embedding FROM ${table}
    ${where === '' ? 'WHERE' : `${where} AND`} rowid > ? ORDER BY rowid LIMIT ${PAGE}`;
  let best: VecHit[] = [];
  for (let after = -1; ;) {
    const rows = await db.all<Stored>(page, [...params, after]);
    const scored = rows.map((r) => ({
      rowid: r.rowid,
      distance: cosineDistance(v, fromBlob(r.embedding, v.length)),
    }));
    best = mergeNearest([best, scored], k);
    const last = rows.at(-1);
    if (rows.length < PAGE || last === undefined) return best;
    after = last.rowid;
  }
}

/** Runs `sql` (selecting `rowid` and `embedding`) and scores each row against `v`. */
export async function exactDistances(
  db: Queryable,
  sql: string,
  params: readonly SqlValue[],
  v: Float32Array,
): Promise<VecHit[]> {
  const rows = await db.all<Stored>(sql, params);
  return rows.map((r) => ({
    rowid: r.rowid,
    distance: cosineDistance(v, fromBlob(r.embedding, v.length)),
  }));
}
