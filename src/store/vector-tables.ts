// The vector storage the memory, code and vault indexes share, behind one dialect-free
// interface: one table per corpus and dimension, partitioned (scope key or collection id), and
// exact cosine KNN merged closest first. sqlite-vec implements it here, PostgreSQL in pg/.
import type { Queryable, SqlValue } from './types.js';

/** Neighbours a KNN pass asks for at most. */
export const MAX_VEC_K = 4096;

/** The bytes of a vector as stored: float32, little-endian (sqlite-vec's blob format). */
export const vecBlob = (v: Float32Array): Uint8Array =>
  new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/** A partition's key: a memory scope key or a collection id. */
export type VecPartition = string | number;

export interface VecHit {
  rowid: number;
  /** Cosine distance (0 = same direction). */
  distance: number;
}

/** What a corpus stores: its per-dimension tables and the registry naming each vector's model. */
export interface VecCorpus {
  /** Prefix of the per-dimension table (`memory_vec_p` → memory_vec_p384). */
  prefix: string;
  /** The partition column of those tables. */
  partition: 'scope_key' | 'collection_id';
  /** The table recording which model made each vector (model, dims) and its key column. */
  registry: string;
  key: string;
}

export const MEMORY_VECTORS: VecCorpus = {
  prefix: 'memory_vec_p',
  partition: 'scope_key',
  registry: 'memory_vectors',
  key: 'item_rowid',
};
export const CODE_VECTORS: VecCorpus = {
  prefix: 'code_vec_p',
  partition: 'collection_id',
  registry: 'code_vectors',
  key: 'chunk_id',
};
export const VAULT_VECTORS: VecCorpus = {
  prefix: 'vault_vec_p',
  partition: 'collection_id',
  registry: 'vault_vectors',
  key: 'fragment_id',
};

/** The table of a corpus's `dims`-d vectors. */
export const vecTableName = (corpus: VecCorpus, dims: number): string =>
  `${corpus.prefix}${Math.trunc(dims)}`;

/** Refuses a dimension no table can be made for. */
export function checkDims(dims: number): void {
  if (!Number.isInteger(dims) || dims < 1 || dims > 8192)
    throw new Error(`bad vector dims ${dims}`);
}

/** `(?, ?, …)` for a non-empty list of ids. */
export const idParams = (ids: readonly number[]): string => `(${ids.map(() => '?').join(',')})`;

/**
 * One corpus's vectors. Writers record the registry row first (`put` may rely on it), then
 * `put` the vector; a registry row deleted takes its vector with it (trigger or foreign key).
 */
export interface VectorTables {
  /** Whether the `dims` table exists yet (remembered once seen). */
  exists(dims: number): Promise<boolean>;
  /** Stores (or replaces) `id`'s vector in its dimension's table, creating the table, in `tx`. */
  put(tx: Queryable, id: number, partition: VecPartition, vector: Float32Array): Promise<void>;
  /** Removes `id`'s vector from the `dims` table (if the table exists), in `tx`. */
  remove(tx: Queryable, dims: number, id: number): Promise<void>;
  /**
   * The `k` vectors nearest `vector` by exact cosine, within `partitions` (every row when
   * undefined), closest first, ties by rowid.
   */
  knn(vector: Float32Array, k: number, partitions?: readonly VecPartition[]): Promise<VecHit[]>;
  /** Cosine distance of each listed id whose registry row is `model`'s, in no order. */
  distances(model: string, vector: Float32Array, ids: readonly number[]): Promise<VecHit[]>;
  /** The stored `dims`-d vector of `id`, or null. */
  vector(dims: number, id: number): Promise<Float32Array | null>;
}

/** Merges per-partition lists closest first (ties by rowid), keeping at most `k`. */
export function mergeNearest(lists: readonly VecHit[][], k: number): VecHit[] {
  return lists
    .flat()
    .sort((a, b) => a.distance - b.distance || a.rowid - b.rowid)
    .slice(0, k);
}

/** A float32 vector from stored little-endian bytes (copied: driver buffers are shared). */
export function fromBlob(bytes: Uint8Array, dims: number): Float32Array {
  // The typed-array constructor copies in one block (Uint8Array.from goes element by element).
  return new Float32Array(new Uint8Array(bytes).buffer, 0, dims);
}

const partitionParam = (p: VecPartition): SqlValue => (typeof p === 'number' ? BigInt(p) : p);

/**
 * The corpus's vectors in sqlite-vec vec0 tables, over a connection that has it loaded;
 * `create` is the DDL of a dimension's table (and its clean-up trigger) from the migrations.
 */
export function createSqliteVectorTables(
  db: Queryable,
  corpus: VecCorpus,
  create: (dims: number) => readonly string[],
): VectorTables {
  const known = new Set<number>();
  const table = (dims: number): string => vecTableName(corpus, dims);
  async function exists(dims: number): Promise<boolean> {
    if (known.has(dims)) return true;
    const row = await db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
      [table(dims)],
    );
    if ((row?.n ?? 0) > 0) known.add(dims);
    return known.has(dims);
  }
  return {
    exists,
    async put(tx, id, partition, vector) {
      checkDims(vector.length);
      // Not cached: the transaction may still roll back.
      for (const sql of create(vector.length)) await tx.run(sql);
      await tx.run(`DELETE FROM ${table(vector.length)} WHERE rowid = ?`, [BigInt(id)]);
      await tx.run(
        `INSERT INTO ${table(vector.length)}(rowid, embedding, ${corpus.partition}) VALUES (?, ?, ?)`,
        [BigInt(id), vecBlob(vector), partitionParam(partition)],
      );
    },
    async remove(tx, dims, id) {
      const row = await tx.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?",
        [table(dims)],
      );
      if ((row?.n ?? 0) > 0)
        await tx.run(`DELETE FROM ${table(dims)} WHERE rowid = ?`, [BigInt(id)]);
    },
    async knn(vector, k, partitions) {
      if (!(await exists(vector.length))) return [];
      const sql = `SELECT rowid, distance FROM ${table(vector.length)}
        WHERE embedding MATCH ? AND k = ?`;
      const blob = vecBlob(vector);
      if (partitions === undefined) return db.all<VecHit>(sql, [blob, k]);
      const lists = await Promise.all(
        partitions.map((p) =>
          db.all<VecHit>(`${sql} AND ${corpus.partition} = ?`, [blob, k, partitionParam(p)]),
        ),
      );
      return mergeNearest(lists, k);
    },
    async distances(model, vector, ids) {
      if (ids.length === 0 || !(await exists(vector.length))) return [];
      // Joined by rowid so vec0 answers point lookups instead of scanning every vector.
      return db.all<VecHit>(
        `SELECT r.${corpus.key} AS rowid, vec_distance_cosine(v.embedding, ?) AS distance
         FROM ${corpus.registry} r JOIN ${table(vector.length)} v ON v.rowid = r.${corpus.key}
         WHERE r.model = ? AND r.dims = ? AND r.${corpus.key} IN (SELECT value FROM json_each(?))`,
        [vecBlob(vector), model, vector.length, JSON.stringify(ids)],
      );
    },
    async vector(dims, id) {
      if (!(await exists(dims))) return null;
      const row = await db.get<{ embedding: Uint8Array }>(
        `SELECT embedding FROM ${table(dims)} WHERE rowid = ?`,
        [BigInt(id)],
      );
      return row === undefined ? null : fromBlob(row.embedding, dims);
    },
  };
}
