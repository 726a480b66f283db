// Vector tables on PostgreSQL: `vector(<dims>)` columns compared with pgvector's `<=>` when the
// server has the extension, else float32 BYTEA compared by exact cosine here (pg-exact-cosine.ts).
// Both are exact scans of the candidate partitions (no HNSW), so results equal SQLite's order.
import type { PoolClient } from 'pg';

import type { Queryable, SqlValue } from '../types.js';
import {
  checkDims,
  fromBlob,
  idParams,
  mergeNearest,
  type VecCorpus,
  type VecHit,
  type VectorTables,
  vecBlob,
  vecTableName,
} from '../vector-tables.js';
import { exactDistances, exactKnn } from './pg-exact-cosine.js';

/** How vectors are stored: pgvector columns, or BYTEA scanned by exact cosine in the store. */
export type PgVectorMode = 'pgvector' | 'exact';

type Kind = 'vector' | 'bytea';

/** pgvector's text input for a vector: every float32 printed exactly. */
export const vectorLiteral = (v: Float32Array): string => `[${Array.from(v).join(',')}]`;

function createTableSql(corpus: VecCorpus, dims: number, kind: Kind): string[] {
  const table = vecTableName(corpus, dims);
  const part = corpus.partition === 'scope_key' ? 'scope_key TEXT' : 'collection_id BIGINT';
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      rowid BIGINT PRIMARY KEY REFERENCES ${corpus.registry}(${corpus.key}) ON DELETE CASCADE,
      ${part} NOT NULL,
      embedding ${kind === 'vector' ? `vector(${dims})` : 'BYTEA'} NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ${table}_part ON ${table}(${corpus.partition}, rowid)`,
  ];
}

/** The storage kind of an existing table (it keeps the one it was made with), or null. */
async function tableKind(q: Queryable, table: string): Promise<Kind | null> {
  const row = await q.get<{ type: string }>(
    `SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
     WHERE a.attrelid = to_regclass(?) AND a.attname = 'embedding'`,
    [table],
  );
  if (row === undefined) return null;
  return row.type === 'bytea' ? 'bytea' : 'vector';
}

const embeddingParam = (kind: Kind, v: Float32Array): SqlValue =>
  kind === 'vector' ? vectorLiteral(v) : vecBlob(v);
const embeddingSql = (kind: Kind): string => (kind === 'vector' ? 'CAST(? AS vector)' : '?');

/** A corpus's vector tables on PostgreSQL; new tables are made in `mode`'s storage. */
export function createPgVectorTables(
  db: Queryable,
  corpus: VecCorpus,
  mode: PgVectorMode,
): VectorTables {
  const known = new Map<number, Kind>();
  const table = (dims: number): string => vecTableName(corpus, dims);

  /** The committed table's kind (remembered: tables are never dropped), or null. */
  async function kindOf(dims: number): Promise<Kind | null> {
    const seen = known.get(dims);
    if (seen !== undefined) return seen;
    const kind = await tableKind(db, table(dims));
    if (kind !== null) known.set(dims, kind);
    return kind;
  }

  /** Creates the table in `tx` when missing (serialised per table so racing creators wait). */
  async function ensure(tx: Queryable, dims: number): Promise<Kind> {
    checkDims(dims);
    const have = known.get(dims) ?? (await tableKind(tx, table(dims)));
    if (have !== null) return have;
    await tx.get('SELECT pg_advisory_xact_lock(hashtext(?))', [table(dims)]);
    const kind: Kind = mode === 'pgvector' ? 'vector' : 'bytea';
    for (const sql of createTableSql(corpus, dims, kind)) await tx.run(sql);
    return (await tableKind(tx, table(dims))) ?? kind;
  }

  function nearestIn(kind: Kind, v: Float32Array, k: number, partition?: SqlValue) {
    const where = partition === undefined ? '' : `WHERE ${corpus.partition} = ?`;
    const scope = partition === undefined ? [] : [partition];
    if (kind === 'bytea') return exactKnn(db, table(v.length), v, k, where, scope);
    return db.all<VecHit>(
      `SELECT rowid, embedding <=> CAST(? AS vector) AS distance FROM ${table(v.length)}
       ${where} ORDER BY distance, rowid LIMIT ?`,
      [vectorLiteral(v), ...scope, k],
    );
  }

  return {
    exists: async (dims) => (await kindOf(dims)) !== null,

    async put(tx, id, partition, vector) {
      const kind = await ensure(tx, vector.length);
      await tx.run(`DELETE FROM ${table(vector.length)} WHERE rowid = ?`, [id]);
      await tx.run(
        `INSERT INTO ${table(vector.length)}(rowid, ${corpus.partition}, embedding)
         VALUES (?, ?, ${embeddingSql(kind)})`,
        [id, partition, embeddingParam(kind, vector)],
      );
    },

    async remove(tx, dims, id) {
      if ((await tableKind(tx, table(dims))) !== null)
        await tx.run(`DELETE FROM ${table(dims)} WHERE rowid = ?`, [id]);
    },

    async knn(vector, k, partitions) {
      const kind = await kindOf(vector.length);
      if (kind === null) return [];
      if (partitions === undefined) return nearestIn(kind, vector, k);
      const lists = await Promise.all(partitions.map((p) => nearestIn(kind, vector, k, p)));
      return mergeNearest(lists, k);
    },

    async distances(model, vector, ids) {
      const kind = await kindOf(vector.length);
      if (ids.length === 0 || kind === null) return [];
      const from = `FROM ${corpus.registry} r JOIN ${table(vector.length)} v
        ON v.rowid = r.${corpus.key}
        WHERE r.model = ? AND r.dims = ? AND r.${corpus.key} IN ${idParams(ids)}`;
      const params = [model, vector.length, ...ids];
      if (kind === 'bytea')
        return exactDistances(
          db,
          `SELECT r.${corpus.key} AS rowid, v.embedding ${from}`,
          params,
          vector,
        );
      return db.all<VecHit>(
        `SELECT r.${corpus.key} AS rowid, v.embedding <=> CAST(? AS vector) AS distance ${from}`,
        [vectorLiteral(vector), ...params],
      );
    },

    async vector(dims, id) {
      const kind = await kindOf(dims);
      if (kind === null) return null;
      if (kind === 'bytea') {
        const row = await db.get<{ e: Uint8Array }>(
          `SELECT embedding AS e FROM ${table(dims)} WHERE rowid = ?`,
          [id],
        );
        return row === undefined ? null : fromBlob(row.e, dims);
      }
      const row = await db.get<{ e: number[] }>(
        `SELECT CAST(embedding AS real[]) AS e FROM ${table(dims)} WHERE rowid = ?`,
        [id],
      );
      return row === undefined ? null : Float32Array.from(row.e);
    },
  };
}

/** What the server offers for vectors, and the warning to log at start when it is slower. */
export interface PgVectorSupport {
  mode: PgVectorMode;
  warning?: string;
}

const SLOWER =
  'vector search on PostgreSQL is exact and slower without the pgvector extension: ' +
  'Cairn computes cosine over every vector of the searched partitions';

/**
 * Uses pgvector when the server has it (creating the extension in this database if it is
 * available but not yet created), else the exact BYTEA path with a warning saying why.
 */
export async function preparePgVectors(client: PoolClient): Promise<PgVectorSupport> {
  const created = async (): Promise<boolean> =>
    ((await client.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'")).rowCount ?? 0) > 0;
  if (await created()) return { mode: 'pgvector' };
  const available = await client.query(
    "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
  );
  if ((available.rowCount ?? 0) === 0)
    return { mode: 'exact', warning: `${SLOWER} (the server does not have it)` };
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    return { mode: 'pgvector' };
  } catch (err) {
    // Another replica may have created it at the same moment; else the role may not.
    if (await created()) return { mode: 'pgvector' };
    const why = err instanceof Error ? err.message : String(err);
    return { mode: 'exact', warning: `${SLOWER} (CREATE EXTENSION vector failed: ${why})` };
  }
}
