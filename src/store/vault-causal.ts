// Named operations for the vault's causal edges beyond vault-edges.ts: the documents that
// declare causes or effects in their frontmatter, the active documents a docid or path names,
// the declared causal edges of a vault, and one eligible causal step with the retrieval filter's
// collection policy resolved inside the store (so ineligible documents never take a slot).
import { jsonObject } from '../shared/index.js';
import { jsonTexts } from './json-lists.js';
import type { Queryable } from './types.js';
import { type VaultNeighbour, vaultNeighbours } from './vault-edges.js';
import { filterCollections } from './vault-filter.js';
import type { VaultFilter } from './vault-types.js';

/** The frontmatter keys that declare causal edges. */
export const DECLARED_CAUSAL_KEYS = ['caused_by', 'causes'] as const;

export interface DeclaringDocument {
  id: number;
  path: string;
  collectionId: number;
  /** The document's frontmatter (parsed); only the declaring keys matter to callers. */
  frontmatter: Record<string, unknown>;
}

/**
 * Whether some active document of `vault` declares causes or effects with a frontmatter that
 * contains one of `needles` (a docid, a path) as text: a cheap, conservative test (it may say
 * yes for a mention that is not a reference, never no for a reference) of whether a new
 * document can resolve a pending declaration.
 */
export async function declarationMayName(
  db: Queryable,
  vault: string,
  needles: readonly string[],
): Promise<boolean> {
  if (needles.length === 0) return false;
  const any = needles.map(() => 'lower(frontmatter) LIKE lower(?)').join(' OR ');
  const row = await db.get<{ one: number }>(
    `SELECT 1 AS one FROM vault_documents WHERE vault = ? AND active = 1
       AND (lower(frontmatter) LIKE ? OR lower(frontmatter) LIKE ?) AND (${any}) LIMIT 1`,
    [vault, '%"caused_by"%', '%"causes"%', ...needles.map((n) => `%${n}%`)],
  );
  return row !== undefined;
}

/** Active documents of `vault` whose frontmatter has a `caused_by` or `causes` key, by id. */
export async function declaringDocuments(
  db: Queryable,
  vault: string,
): Promise<DeclaringDocument[]> {
  const rows = await db.all<{ id: number; path: string; collectionId: number; fm: string }>(
    `SELECT id, path, collection_id AS "collectionId", frontmatter AS fm FROM vault_documents
     WHERE vault = ? AND active = 1 AND (lower(frontmatter) LIKE ? OR lower(frontmatter) LIKE ?)
     ORDER BY id`,
    [vault, '%"caused_by"%', '%"causes"%'],
  );
  return rows
    .map((r) => ({
      id: r.id,
      path: r.path,
      collectionId: r.collectionId,
      frontmatter: jsonObject(r.fm),
    }))
    .filter((d) => DECLARED_CAUSAL_KEYS.some((k) => k in d.frontmatter));
}

export interface DocumentKey {
  id: number;
  docid: string;
  path: string;
  collectionId: number;
  collection: string;
}

/** Active documents of `vault` with one of `docids` or at one of `paths` (collection-relative). */
export async function activeDocumentsByKey(
  db: Queryable,
  vault: string,
  keys: { docids: readonly string[]; paths: readonly string[] },
): Promise<DocumentKey[]> {
  if (keys.docids.length === 0 && keys.paths.length === 0) return [];
  return db.all<DocumentKey>(
    `SELECT d.id, d.docid, d.path, d.collection_id AS "collectionId", c.name AS collection
     FROM vault_documents d JOIN vault_collections c ON c.id = d.collection_id
     WHERE d.vault = ? AND d.active = 1 AND (d.docid IN ${jsonTexts(db.dialect)}
       OR d.path IN ${jsonTexts(db.dialect)}) ORDER BY d.id`,
    [vault, JSON.stringify([...keys.docids]), JSON.stringify([...keys.paths])],
  );
}

/** The vault's causal edges of origin 'declared'. */
export async function declaredCausalEdges(
  db: Queryable,
  vault: string,
): Promise<{ sourceId: number; targetId: number; reasoning: string | null }[]> {
  return db.all(
    `SELECT source_id AS "sourceId", target_id AS "targetId", reasoning FROM vault_edges
     WHERE vault = ? AND edge_type = 'causal' AND origin = 'declared' ORDER BY id`,
    [vault],
  );
}

/**
 * One step along causal edges from `fromIds` (forward: to effects; backward: to causes) to the
 * documents `filter` admits, its collection policy included (the internal collection only when
 * named or asked for); at most `perAnchor` per start, heaviest edge first.
 */
export async function eligibleCausalStep(
  db: Queryable,
  opts: { fromIds: readonly number[]; forward: boolean; filter: VaultFilter; perAnchor: number },
): Promise<VaultNeighbour[]> {
  if (opts.fromIds.length === 0) return [];
  const collectionIds = await filterCollections(db, opts.filter);
  return vaultNeighbours(db, { ...opts, type: 'causal', collectionIds });
}
