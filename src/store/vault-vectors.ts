// Fragment vectors through the backend's vector tables (sqlite-vec, or pg/pg-vectors.ts): one
// table per dimension, partitioned by collection, and vault_vectors recording which model made
// each (migration 24 drops a vector when its fragment changes or goes). KNN per collection,
// rechecked against the filter; and the backlog queries the embedding loop runs.
import { createVaultVecSql } from './migration-vault.js';
import type { Queryable } from './types.js';
import { documentConditions, filterCollections } from './vault-filter.js';
import type { VaultFilter, VaultFragmentToEmbed, VaultVectorHit } from './vault-types.js';
import {
  checkDims,
  createSqliteVectorTables,
  idParams,
  MAX_VEC_K,
  VAULT_VECTORS,
  type VectorTables,
} from './vector-tables.js';

export interface VaultVectors {
  /** Stores (or replaces) fragment vectors of one dimension; vanished fragments are skipped. */
  putVectors(
    tx: Queryable,
    model: string,
    rows: readonly { fragmentId: number; vector: Float32Array }[],
  ): Promise<void>;
  /** The fragments embedded by `model` nearest `vector` the filter admits, most similar first. */
  nearest(
    model: string,
    vector: Float32Array,
    filter: VaultFilter,
    limit: number,
  ): Promise<VaultVectorHit[]>;
  /**
   * As `nearest`, and whether the scan stopped at its cap (MAX_VEC_K neighbours per collection)
   * before it saw every fragment: a short answer with `capped` false saw everything.
   */
  nearestScan(
    model: string,
    vector: Float32Array,
    filter: VaultFilter,
    limit: number,
  ): Promise<{ hits: VaultVectorHit[]; capped: boolean }>;
  /**
   * The stored `model` vector of a document's whole-document fragment (what the backlog
   * embedded for it), or null while it has none.
   */
  documentVector(model: string, documentId: number): Promise<Float32Array | null>;
  /** The largest fragment id (0 when none): where a backlog scan is complete. */
  maxFragmentId(): Promise<number>;
  /** Fragments of active documents above `after` without a `model` vector, ascending. */
  fragmentsToEmbed(model: string, after: number, limit: number): Promise<VaultFragmentToEmbed[]>;
  /** Fragments of active documents (of `vault`, else all) without a `model` vector. */
  pendingVectors(model: string, vault?: string): Promise<number>;
}

const WAITING = `FROM vault_fragments f JOIN vault_documents d ON d.id = f.document_id
  LEFT JOIN vault_vectors v ON v.fragment_id = f.id
  WHERE d.active = 1 AND (v.fragment_id IS NULL OR v.model <> ?)`;

/** The vector operations over `db`; the vectors in `tables` (default: sqlite-vec on `db`). */
export function createVaultVectors(
  db: Queryable,
  tables: VectorTables = createSqliteVectorTables(db, VAULT_VECTORS, createVaultVecSql),
): VaultVectors {
  async function recheck(
    hits: readonly { rowid: number; distance: number }[],
    model: string,
    filter: VaultFilter,
  ): Promise<VaultVectorHit[]> {
    if (hits.length === 0) return [];
    const where = documentConditions(filter);
    const ok = await db.all<{ id: number; documentId: number }>(
      `SELECT f.id, f.document_id AS "documentId"
       FROM vault_fragments f JOIN vault_documents d ON d.id = f.document_id
       JOIN vault_vectors v ON v.fragment_id = f.id AND v.model = ?
       WHERE f.id IN ${idParams(hits.map((h) => h.rowid))} AND ${where.sql}`,
      [model, ...hits.map((h) => h.rowid), ...where.params],
    );
    const doc = new Map(ok.map((r) => [r.id, r.documentId]));
    return hits.flatMap((h) => {
      const documentId = doc.get(h.rowid);
      return documentId === undefined
        ? []
        : [{ fragmentId: h.rowid, documentId, cosine: 1 - h.distance }];
    });
  }

  const nearestScan: VaultVectors['nearestScan'] = async (model, vector, filter, limit) => {
    const want = Math.trunc(limit);
    if (!(want >= 1) || !(await tables.exists(vector.length))) return { hits: [], capped: false };
    const collections = await filterCollections(db, filter);
    if (collections.length === 0) return { hits: [], capped: false };
    let k = Math.min(MAX_VEC_K, Math.max(want * 8, 64));
    for (;;) {
      const found = await tables.knn(vector, k, collections);
      const hits = (await recheck(found, model, filter)).slice(0, want);
      const exhaustive = found.length < k;
      if (hits.length >= want || exhaustive || k >= MAX_VEC_K) {
        return { hits, capped: hits.length < want && !exhaustive };
      }
      k = Math.min(MAX_VEC_K, k * 4);
    }
  };

  return {
    async putVectors(tx, model, rows) {
      const dims = rows[0]?.vector.length ?? 0;
      if (rows.length === 0) return;
      checkDims(dims);
      for (const { fragmentId, vector } of rows) {
        if (vector.length !== dims) throw new Error('vectors in one batch must share a dimension');
        const frag = await tx.get<{ collection: number }>(
          `SELECT d.collection_id AS collection FROM vault_fragments f
           JOIN vault_documents d ON d.id = f.document_id WHERE f.id = ?`,
          [fragmentId],
        );
        if (frag === undefined) continue;
        // The old vector leaves its table with its vault_vectors row (trigger or foreign key).
        await tx.run('DELETE FROM vault_vectors WHERE fragment_id = ?', [fragmentId]);
        await tx.run(
          `INSERT INTO vault_vectors(fragment_id, collection_id, model, dims, embedded_at)
           VALUES (?, ?, ?, ?, ?)`,
          [fragmentId, frag.collection, model, dims, Date.now()],
        );
        await tables.put(tx, fragmentId, frag.collection, vector);
      }
    },

    nearest: async (model, vector, filter, limit) =>
      (await nearestScan(model, vector, filter, limit)).hits,

    nearestScan,

    async documentVector(model, documentId) {
      const frag = await db.get<{ id: number; dims: number }>(
        `SELECT f.id, v.dims FROM vault_fragments f
         JOIN vault_vectors v ON v.fragment_id = f.id AND v.model = ?
         WHERE f.document_id = ? AND f.kind = 'whole'`,
        [model, documentId],
      );
      return frag === undefined ? null : tables.vector(frag.dims, frag.id);
    },

    async maxFragmentId() {
      const row = await db.get<{ top: number | null }>(
        'SELECT MAX(id) AS top FROM vault_fragments',
      );
      return row?.top ?? 0;
    },

    fragmentsToEmbed: (model, after, limit) =>
      db.all<VaultFragmentToEmbed>(
        `SELECT f.id, d.title, f.heading_path AS "headingPath", f.text ${WAITING}
           AND f.id > ? ORDER BY f.id LIMIT ?`,
        [model, after, limit],
      ),

    async pendingVectors(model, vault) {
      const row = await db.get<{ n: number }>(
        `SELECT COUNT(*) AS n ${WAITING}${vault === undefined ? '' : ' AND d.vault = ?'}`,
        vault === undefined ? [model] : [model, vault],
      );
      return row?.n ?? 0;
    },
  };
}
