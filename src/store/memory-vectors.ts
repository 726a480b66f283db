// Memory item vectors: stored through the backend's vector tables (sqlite-vec, or PostgreSQL's
// pg/pg-vectors.ts) partitioned by scope key, memory_vectors recording which model made each,
// and nearest neighbours rechecked against the domain's filter. Portable SQL only.
import type { ScopePartition } from './scope-key.js';
import { scopeKey } from './scope-key.js';
import type { Queryable, SqlValue } from './types.js';
import { checkDims, MAX_VEC_K, type VectorTables } from './vector-tables.js';

/** A portable WHERE fragment over `memory_items m` supplied by the domain (scope, kind…). */
export interface SqlFilter {
  sql: string;
  params: readonly SqlValue[];
  /**
   * The scopes `sql` admits, when it is a live fact/procedure visibility filter. The indexes
   * then rank only items of these scopes (`sql` is still applied to every row returned).
   */
  partitions?: readonly ScopePartition[];
}

export interface VectorHit {
  rowid: number;
  /** Cosine distance (0 = same direction). */
  distance: number;
}

export interface MemoryVectors {
  /** Stores (or replaces) item vectors made by `model`, all of one dimension. */
  putVectors(
    tx: Queryable,
    model: string,
    rows: readonly { rowid: number; vector: Float32Array }[],
  ): Promise<void>;
  /** Nearest items embedded by `model` that pass `filter`, closest first. */
  nearest(
    model: string,
    vector: Float32Array,
    filter: SqlFilter,
    limit: number,
  ): Promise<VectorHit[]>;
  /**
   * Cosine distance from `vector` of each listed item's `model` vector, in no particular order;
   * items without one (not embedded yet, or by another model) are left out.
   */
  distances(model: string, vector: Float32Array, rowids: readonly number[]): Promise<VectorHit[]>;
}

/** Keeps the rows of `ranked` (best first) whose item passes `filter`, in order. */
export async function recheckItems<T extends { rowid: number }>(
  db: Queryable,
  ranked: readonly T[],
  filter: SqlFilter,
): Promise<T[]> {
  if (ranked.length === 0) return [];
  const ok = await db.all<{ rowid: number }>(
    `SELECT m.rowid AS rowid FROM memory_items m
     WHERE m.rowid IN (${ranked.map(() => '?').join(',')}) AND (${filter.sql})`,
    [...ranked.map((r) => r.rowid), ...filter.params],
  );
  const pass = new Set(ok.map((r) => r.rowid));
  return ranked.filter((r) => pass.has(r.rowid));
}

/** The memory vector operations over the backend's vector tables for memory items. */
export function createMemoryVectors(db: Queryable, tables: VectorTables): MemoryVectors {
  /** `recheckItems`, also requiring the item's vector to come from `model`. */
  function recheckModel(hits: readonly VectorHit[], model: string, filter: SqlFilter) {
    const fromModel: SqlFilter = {
      sql: `(${filter.sql}) AND EXISTS (SELECT 1 FROM memory_vectors mv
        WHERE mv.item_rowid = m.rowid AND mv.model = ?)`,
      params: [...filter.params, model],
    };
    return recheckItems(db, hits, fromModel);
  }

  return {
    async putVectors(tx, model, rows) {
      if (rows.length === 0) return;
      const dims = rows[0]?.vector.length ?? 0;
      checkDims(dims);
      for (const { rowid, vector } of rows) {
        if (vector.length !== dims) throw new Error('vectors in one batch must share a dimension');
        const old = await tx.get<{ dims: number }>(
          'SELECT dims FROM memory_vectors WHERE item_rowid = ?',
          [rowid],
        );
        if (old !== undefined) await tables.remove(tx, old.dims, rowid);
        const item = await tx.get<{ key: string }>(
          'SELECT scope_key AS key FROM memory_items WHERE rowid = ?',
          [rowid],
        );
        await tx.run(
          `INSERT INTO memory_vectors (item_rowid, model, dims, embedded_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (item_rowid) DO UPDATE SET model = excluded.model, dims = excluded.dims,
             embedded_at = excluded.embedded_at`,
          [rowid, model, dims, Date.now()],
        );
        await tables.put(tx, rowid, item?.key ?? '', vector);
      }
    },

    async nearest(model, vector, filter, limit) {
      const partitions = filter.partitions?.map(scopeKey);
      let k = Math.min(MAX_VEC_K, Math.max(limit * 8, 64));
      for (;;) {
        const found = await tables.knn(vector, k, partitions);
        const rows = (await recheckModel(found, model, filter)).slice(0, limit);
        if (rows.length >= limit || k >= MAX_VEC_K || found.length < k) return rows;
        k = Math.min(MAX_VEC_K, k * 4);
      }
    },

    distances: (model, vector, rowids) => tables.distances(model, vector, rowids),
  };
}
