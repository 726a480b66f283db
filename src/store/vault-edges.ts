// Named operations on the vault's document graph (migration 30): idempotent edge writes, the
// removal of one origin's edges around documents (re-derivation), active-edge totals, and the
// eligible neighbours of documents along one edge type, with the retrieval filter applied
// inside the query so an ineligible document never takes a slot.
import { jsonIds } from './json-lists.js';
import type { Queryable, SqlValue } from './types.js';
import { documentConditions } from './vault-filter.js';
import type { VaultFilter } from './vault-types.js';

export type VaultEdgeType = 'temporal' | 'semantic' | 'causal';
export type VaultEdgeOrigin = 'built' | 'extracted' | 'declared';

export interface VaultEdgeInput {
  vault: string;
  sourceId: number;
  targetId: number;
  type: VaultEdgeType;
  weight: number;
  origin: VaultEdgeOrigin;
  reasoning?: string | null;
  confidence?: number | null;
}

const list = (values: readonly number[]): string => JSON.stringify([...values]);

/**
 * Writes the edge unless one of its (source, target, type) exists; an existing edge takes the
 * new weight, reasoning and confidence. `inserted` says whether this call wrote a new row.
 */
export async function upsertVaultEdge(
  tx: Queryable,
  e: VaultEdgeInput,
  now: number,
): Promise<{ id: number; inserted: boolean }> {
  const params: SqlValue[] = [e.weight, e.reasoning ?? null, e.confidence ?? null];
  const made = await tx.get<{ id: number }>(
    `INSERT INTO vault_edges(vault, source_id, target_id, edge_type, weight, origin, reasoning,
       confidence, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(source_id, target_id, edge_type) DO NOTHING RETURNING id`,
    [
      e.vault,
      e.sourceId,
      e.targetId,
      e.type,
      e.weight,
      e.origin,
      e.reasoning ?? null,
      e.confidence ?? null,
      now,
      now,
    ],
  );
  if (made !== undefined) return { id: made.id, inserted: true };
  const row = await tx.get<{ id: number }>(
    'SELECT id FROM vault_edges WHERE source_id = ? AND target_id = ? AND edge_type = ?',
    [e.sourceId, e.targetId, e.type],
  );
  if (row === undefined) throw new Error('vault edge vanished inside its transaction');
  await tx.run(
    `UPDATE vault_edges SET weight = ?, reasoning = ?, confidence = ?, updated_at = ?
     WHERE id = ? AND (weight <> ? OR reasoning IS DISTINCT FROM ? OR confidence IS DISTINCT FROM ?)`,
    [...params, now, row.id, ...params],
  );
  return { id: row.id, inserted: false };
}

/**
 * Deletes the edges of `type` and `origin` whose source (or target, or either end) is among
 * `documentIds`, with their witnesses. Returns how many edges went.
 */
export async function removeVaultEdges(
  tx: Queryable,
  opts: {
    documentIds: readonly number[];
    type: VaultEdgeType;
    origin: VaultEdgeOrigin;
    end: 'source' | 'target' | 'either';
  },
): Promise<number> {
  if (opts.documentIds.length === 0) return 0;
  const inList = (col: string): string => `${col} IN ${jsonIds(tx.dialect)}`;
  const ids = list(opts.documentIds);
  const ends =
    opts.end === 'source'
      ? { sql: inList('source_id'), params: [ids] }
      : opts.end === 'target'
        ? { sql: inList('target_id'), params: [ids] }
        : { sql: `(${inList('source_id')} OR ${inList('target_id')})`, params: [ids, ids] };
  const where = `edge_type = ? AND origin = ? AND ${ends.sql}`;
  const params = [opts.type, opts.origin, ...ends.params];
  await tx.run(
    `DELETE FROM vault_causal_witnesses WHERE edge_id IN (SELECT id FROM vault_edges WHERE ${where})`,
    params,
  );
  const { changes } = await tx.run(`DELETE FROM vault_edges WHERE ${where}`, params);
  return changes;
}

/** Edges of `type` in the vault whose two endpoints are both active documents. */
export async function countActiveEdges(
  db: Queryable,
  vault: string,
  type: VaultEdgeType,
): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM vault_edges e
     JOIN vault_documents s ON s.id = e.source_id AND s.active = 1
     JOIN vault_documents t ON t.id = e.target_id AND t.active = 1
     WHERE e.vault = ? AND e.edge_type = ?`,
    [vault, type],
  );
  return row?.n ?? 0;
}

export interface VaultNeighbour {
  /** The document the step started from. */
  fromId: number;
  /** The document reached. */
  id: number;
  edgeId: number;
  weight: number;
}

/**
 * Neighbours of `fromIds` along edges of `type`: `forward` follows source → target, else
 * target → source. Only documents passing `filter` (and, when given, in `collectionIds`) are
 * reached; at most `perAnchor` per start document, heaviest edge first, then the lower id.
 */
export async function vaultNeighbours(
  db: Queryable,
  opts: {
    fromIds: readonly number[];
    type: VaultEdgeType;
    forward: boolean;
    filter: VaultFilter;
    collectionIds?: readonly number[];
    perAnchor: number;
  },
): Promise<VaultNeighbour[]> {
  if (opts.fromIds.length === 0) return [];
  const [from, to] = opts.forward ? ['source_id', 'target_id'] : ['target_id', 'source_id'];
  const cond = documentConditions(opts.filter);
  const inCollections =
    opts.collectionIds === undefined ? '' : `AND d.collection_id IN ${jsonIds(db.dialect)}`;
  const params: SqlValue[] = [list(opts.fromIds), opts.type, ...cond.params];
  if (opts.collectionIds !== undefined) params.push(list(opts.collectionIds));
  return db.all<VaultNeighbour>(
    `SELECT "fromId", id, "edgeId", weight FROM (
       SELECT e.${from} AS "fromId", e.${to} AS id, e.id AS "edgeId", e.weight,
         ROW_NUMBER() OVER (PARTITION BY e.${from} ORDER BY e.weight DESC, e.${to}) AS rank
       FROM vault_edges e JOIN vault_documents d ON d.id = e.${to}
       WHERE e.${from} IN ${jsonIds(db.dialect)} AND e.edge_type = ?
         AND ${cond.sql} ${inCollections}
     ) n WHERE rank <= ? ORDER BY "fromId", rank`,
    [...params, opts.perAnchor],
  );
}
