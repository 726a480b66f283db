// Named operations build_graphs needs beyond vault-edges.ts: the vault's active documents in
// effective-time order (the temporal backbone's chain), the built edges of one type (to diff
// against what a rebuild derives), removing edges by id, and which active documents have a
// stored whole-document vector from a model. Reads take any queryable; writes the caller's tx.
import { jsonIds } from './json-lists.js';
import type { Queryable } from './types.js';
import type { VaultEdgeType } from './vault-edges.js';

export interface BuiltEdge {
  id: number;
  sourceId: number;
  targetId: number;
}

/** Active documents of `vault`, oldest first by effective time (authored_at ?? modified_at), then id. */
export async function activeChain(db: Queryable, vault: string): Promise<number[]> {
  const rows = await db.all<{ id: number }>(
    `SELECT id FROM vault_documents WHERE vault = ? AND active = 1
     ORDER BY COALESCE(authored_at, modified_at), id`,
    [vault],
  );
  return rows.map((r) => r.id);
}

/** Every edge of `type` with origin 'built' in `vault` (whatever its endpoints' state). */
export function builtEdges(
  db: Queryable,
  vault: string,
  type: VaultEdgeType,
): Promise<BuiltEdge[]> {
  return db.all<BuiltEdge>(
    `SELECT id, source_id AS "sourceId", target_id AS "targetId" FROM vault_edges
     WHERE vault = ? AND edge_type = ? AND origin = 'built' ORDER BY id`,
    [vault, type],
  );
}

/** Deletes edges (and any witnesses) by id. Returns how many edges went. */
export async function deleteVaultEdges(tx: Queryable, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const list = JSON.stringify([...ids]);
  await tx.run(`DELETE FROM vault_causal_witnesses WHERE edge_id IN ${jsonIds(tx.dialect)}`, [
    list,
  ]);
  const { changes } = await tx.run(`DELETE FROM vault_edges WHERE id IN ${jsonIds(tx.dialect)}`, [
    list,
  ]);
  return changes;
}

/**
 * Active documents of `vault` split by whether their whole-document fragment has a `model`
 * vector (ascending ids): what the semantic build can compare, and what it must skip.
 */
export async function vectorCoverage(
  db: Queryable,
  vault: string,
  model: string,
): Promise<{ withVector: number[]; without: number[] }> {
  // Documents → their whole fragment → its vector by key (LEFT JOINs fix that order; a
  // correlated EXISTS let the planner scan every vector of the model per document).
  const rows = await db.all<{ id: number; has: number }>(
    `SELECT d.id, MAX(CASE WHEN v.model = ? THEN 1 ELSE 0 END) AS has
     FROM vault_documents d
     LEFT JOIN vault_fragments f ON f.document_id = d.id AND f.kind = 'whole'
     LEFT JOIN vault_vectors v ON v.fragment_id = f.id
     WHERE d.vault = ? AND d.active = 1 GROUP BY d.id ORDER BY d.id`,
    [model, vault],
  );
  return {
    withVector: rows.filter((r) => r.has === 1).map((r) => r.id),
    without: rows.filter((r) => r.has !== 1).map((r) => r.id),
  };
}
