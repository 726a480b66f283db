// The sqlite-vec plumbing code chunks and vault fragments share: one vec0 table per dimension
// partitioned by collection id, whether a dimension's table exists yet (remembered once seen),
// and one KNN pass per collection merged closest first. Each corpus keeps its own recheck.
import type { Queryable } from './types.js';

/** Neighbours a KNN pass asks sqlite-vec for at most. */
export const MAX_VEC_K = 4096;

/** The bytes of a vector, as sqlite-vec reads a float32 blob. */
export const vecBlob = (v: Float32Array): Uint8Array =>
  new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

export interface VecPartitions {
  tableExists(dims: number): Promise<boolean>;
  /** One KNN pass of `k` per collection, merged closest first (ties by rowid), at most `k`. */
  knn(
    dims: number,
    blob: Uint8Array,
    k: number,
    collections: readonly number[],
  ): Promise<{ rowid: number; distance: number }[]>;
}

export function createVecPartitions(
  db: Queryable,
  tableOf: (dims: number) => string,
): VecPartitions {
  const known = new Set<number>();
  return {
    async tableExists(dims) {
      if (known.has(dims)) return true;
      const row = await db.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
        [tableOf(dims)],
      );
      if ((row?.n ?? 0) > 0) known.add(dims);
      return known.has(dims);
    },
    async knn(dims, blob, k, collections) {
      const lists = await Promise.all(
        collections.map((id) =>
          db.all<{ rowid: number; distance: number }>(
            `SELECT rowid, distance FROM ${tableOf(dims)}
             WHERE embedding MATCH ? AND k = ? AND collection_id = ?`,
            [blob, k, BigInt(id)],
          ),
        ),
      );
      return lists
        .flat()
        .sort((a, b) => a.distance - b.distance || a.rowid - b.rowid)
        .slice(0, k);
    },
  };
}
