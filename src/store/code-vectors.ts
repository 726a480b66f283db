// Chunk vectors in sqlite-vec: one vec0 table per dimension, partitioned by collection, and
// code_vectors recording which model made each (migration 21 drops a vector when its chunk
// changes or goes). KNN runs per collection, then the filter is rechecked by joining files.
import { type CodeFilter, codeFilterSql } from './code-filter.js';
import { codeVecTable, createCodeVecSql } from './migration-code-postings.js';
import type { Queryable } from './types.js';
import { createVecPartitions, MAX_VEC_K, vecBlob } from './vec-partitions.js';

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

/** The vector operations over a connection that has sqlite-vec loaded. */
export function createCodeVectors(db: Queryable): CodeVectors {
  const { tableExists, knn } = createVecPartitions(db, codeVecTable);

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
       WHERE c.id IN (SELECT value FROM json_each(?)) AND ${where.sql}`,
      [model, JSON.stringify(hits.map((h) => h.rowid)), ...where.params],
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
      if (!Number.isInteger(dims) || dims < 1 || dims > 8192)
        throw new Error(`bad vector dims ${dims}`);
      for (const sql of createCodeVecSql(dims)) await tx.run(sql);
      for (const { chunkId, vector } of rows) {
        if (vector.length !== dims) throw new Error('vectors in one batch must share a dimension');
        const chunk = await tx.get<{ collection: number }>(
          'SELECT collection_id AS collection FROM code_chunks WHERE id = ?',
          [chunkId],
        );
        if (chunk === undefined) continue;
        // The old vector leaves its vec0 table through the clean-up trigger.
        await tx.run('DELETE FROM code_vectors WHERE chunk_id = ?', [chunkId]);
        await tx.run(`DELETE FROM ${codeVecTable(dims)} WHERE rowid = ?`, [BigInt(chunkId)]);
        await tx.run(
          `INSERT INTO ${codeVecTable(dims)}(rowid, embedding, collection_id) VALUES (?, ?, ?)`,
          [BigInt(chunkId), vecBlob(vector), BigInt(chunk.collection)],
        );
        await tx.run(
          'INSERT INTO code_vectors(chunk_id, collection_id, model, dims, embedded_at) VALUES (?, ?, ?, ?, ?)',
          [chunkId, chunk.collection, model, dims, Date.now()],
        );
      }
    },

    async nearest(model, vector, filter, limit) {
      const collections = [...new Set(filter.collectionIds)].filter(Number.isSafeInteger);
      const want = Math.trunc(limit);
      if (collections.length === 0 || !(want >= 1) || !(await tableExists(vector.length)))
        return [];
      const blob = vecBlob(vector);
      let k = Math.min(MAX_VEC_K, Math.max(want * 8, 64));
      for (;;) {
        const found = await knn(vector.length, blob, k, collections);
        const rows = (await recheck(found, model, filter)).slice(0, want);
        if (rows.length >= want || k >= MAX_VEC_K || found.length < k) return rows;
        k = Math.min(MAX_VEC_K, k * 4);
      }
    },

    async distances(model, vector, chunkIds) {
      if (chunkIds.length === 0 || !(await tableExists(vector.length))) return [];
      // Joined by rowid so vec0 answers point lookups instead of scanning every vector.
      const rows = await db.all<{ id: number; distance: number }>(
        `SELECT cv.chunk_id AS id, vec_distance_cosine(v.embedding, ?) AS distance
         FROM code_vectors cv JOIN ${codeVecTable(vector.length)} v ON v.rowid = cv.chunk_id
         WHERE cv.model = ? AND cv.dims = ? AND cv.chunk_id IN (SELECT value FROM json_each(?))`,
        [vecBlob(vector), model, vector.length, JSON.stringify(chunkIds)],
      );
      return rows.map((r) => ({ chunkId: r.id, distance: r.distance }));
    },
  };
}
