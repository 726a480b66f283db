// Chunk vectors through the backend's vector tables (sqlite-vec, or pg/pg-vectors.ts): one table
// per dimension, partitioned by collection, and code_vectors recording which model made each
// (migration 21 drops a vector when its chunk changes or goes). KNN runs per collection, then
// the filter is rechecked by joining files.
import { type CodeFilter, codeFilterSql } from './code-filter.js';
import { createCodeVecSql } from './migration-code-postings.js';
import type { Queryable } from './types.js';
import {
  checkDims,
  CODE_VECTORS,
  createSqliteVectorTables,
  idParams,
  MAX_VEC_K,
  type VectorTables,
} from './vector-tables.js';

export interface CodeVectorHit {
  chunkId: number;
  /** Cosine distance (0 = same direction). */
  distance: number;
}

export interface CodeVectors {
  /**
   * Stores (or replaces) chunk vectors made by `model`, all of one dimension, inside the
   * caller's write transaction. Chunks that no longer exist are skipped.
   */
  putVectors(
    tx: Queryable,
    model: string,
    rows: readonly { chunkId: number; vector: Float32Array }[],
  ): Promise<void>;
  /** The chunks embedded by `model` nearest `vector` that pass `filter`, closest first. */
  nearest(
    model: string,
    vector: Float32Array,
    filter: CodeFilter,
    limit: number,
  ): Promise<CodeVectorHit[]>;
  /**
   * Cosine distance from `vector` of each listed chunk's `model` vector, in no particular
   * order; chunks without one (not embedded yet, or by another model) are left out.
   */
  distances(
    model: string,
    vector: Float32Array,
    chunkIds: readonly number[],
  ): Promise<CodeVectorHit[]>;
}

/** The vector operations over `db`; the vectors in `tables` (default: sqlite-vec on `db`). */
export function createCodeVectors(
  db: Queryable,
  tables: VectorTables = createSqliteVectorTables(db, CODE_VECTORS, createCodeVecSql),
): CodeVectors {
  /** The hits (closest first) whose chunk passes the filter and whose vector is `model`'s. */
  async function recheck(
    hits: readonly { rowid: number; distance: number }[],
    model: string,
    filter: CodeFilter,
  ): Promise<CodeVectorHit[]> {
    if (hits.length === 0) return [];
    const where = codeFilterSql(filter);
    const ok = await db.all<{ id: number }>(
      `SELECT c.id FROM code_chunks c JOIN code_files f ON f.id = c.file_id
       JOIN code_vectors v ON v.chunk_id = c.id AND v.model = ?
       WHERE c.id IN ${idParams(hits.map((h) => h.rowid))} AND ${where.sql}`,
      [model, ...hits.map((h) => h.rowid), ...where.params],
    );
    const pass = new Set(ok.map((r) => r.id));
    return hits.flatMap((h) =>
      pass.has(h.rowid) ? [{ chunkId: h.rowid, distance: h.distance }] : [],
    );
  }

  return {
    async putVectors(tx, model, rows) {
      const dims = rows[0]?.vector.length ?? 0;
      if (rows.length === 0) return;
      checkDims(dims);
      for (const { chunkId, vector } of rows) {
        if (vector.length !== dims) throw new Error('vectors in one batch must share a dimension');
        const chunk = await tx.get<{ collection: number }>(
          'SELECT collection_id AS collection FROM code_chunks WHERE id = ?',
          [chunkId],
        );
        if (chunk === undefined) continue;
        // The old vector leaves its table with its code_vectors row (trigger or foreign key).
        await tx.run('DELETE FROM code_vectors WHERE chunk_id = ?', [chunkId]);
        await tx.run(
          'INSERT INTO code_vectors(chunk_id, collection_id, model, dims, embedded_at) VALUES (?, ?, ?, ?, ?)',
          [chunkId, chunk.collection, model, dims, Date.now()],
        );
        await tables.put(tx, chunkId, chunk.collection, vector);
      }
    },

    async nearest(model, vector, filter, limit) {
      const collections = [...new Set(filter.collectionIds)].filter(Number.isSafeInteger);
      const want = Math.trunc(limit);
      if (collections.length === 0 || !(want >= 1)) return [];
      let k = Math.min(MAX_VEC_K, Math.max(want * 8, 64));
      for (;;) {
        const found = await tables.knn(vector, k, collections);
        const rows = (await recheck(found, model, filter)).slice(0, want);
        if (rows.length >= want || k >= MAX_VEC_K || found.length < k) return rows;
        k = Math.min(MAX_VEC_K, k * 4);
      }
    },

    async distances(model, vector, chunkIds) {
      const rows = await tables.distances(model, vector, chunkIds);
      return rows.map((r) => ({ chunkId: r.rowid, distance: r.distance }));
    },
  };
}
