// Named operations behind the vault's extracted causal links: which active documents state a
// cause entity or name it as a `caused_by` cause (graph_entities by slug → triples → evidence),
// the witnesses of one edge written as a set, and the traversal's reads (one causal step from
// documents with both endpoints active, witnesses with their counts). Portable SQL; id lists per dialect.
import { isVaultDocKey, vaultDocIdOf } from './graph-facts.js';
import { jsonIds, jsonTexts } from './json-lists.js';
import type { Dialect, Queryable, SqlValue } from './types.js';

const list = (values: readonly (string | number)[]): string => JSON.stringify([...values]);

/** The vault document a `vault-doc:<id>` evidence row names. */
const EVIDENCE_DOC = vaultDocIdOf('ev.document');

/**
 * Documents with evidence on the current triples `hits` selects (a query over `names`, the
 * entities with the slugs asked), active in the vault, newest (authored, else modified) first.
 * Written to start from the entities by slug, then the triples by subject or object, then the
 * evidence by triple: an index lookup at each step, never a scan of the graph.
 */
const documentsOf = (hits: string, dialect: Dialect): string => `
  WITH names AS (
    SELECT name FROM graph_entities
    WHERE graph_id = ? AND slug IN ${jsonTexts(dialect)}
  ), hits AS (${hits}), docs AS (
    SELECT DISTINCT ${EVIDENCE_DOC} AS id FROM hits h CROSS JOIN graph_evidence ev
    WHERE ev.triple_id = h.id AND ${isVaultDocKey('ev.document')}
  )
  SELECT d.id, d.content FROM docs x CROSS JOIN vault_documents d
  WHERE d.id = x.id AND d.vault = ? AND d.active = 1 AND d.id <> ?
  ORDER BY COALESCE(d.authored_at, d.modified_at) DESC, d.id DESC LIMIT ?`;

/**
 * Current triples with a `names` entity as subject (or object), of `predicate` or not. The
 * object side names its index (SQLite otherwise prefers walking the covering partial index of
 * the whole graph); PostgreSQL has no such hint.
 */
const triplesBy = (
  end: 'subject' | 'object',
  predicate: '=' | '<>' | 'any',
  dialect: Dialect,
): string =>
  `SELECT t.id FROM names n CROSS JOIN graph_triples t
   ${end === 'object' && dialect === 'sqlite' ? 'INDEXED BY graph_triples_object' : ''}
   WHERE t.graph_id = ? AND t.${end} = n.name AND t.status = 'current'
   ${predicate === 'any' ? '' : `AND t.predicate ${predicate} 'caused_by'`}`;

export interface CausalDocumentRow {
  id: number;
  content: string;
}

interface SlugQuery {
  graphId: number;
  vault: string;
  slugs: readonly string[];
  excludeId: number;
  limit: number;
}

const slugParams = (o: SlugQuery, triples: number): SqlValue[] => [
  o.graphId,
  list(o.slugs),
  ...Array.from({ length: triples }, () => o.graphId),
  o.vault,
  o.excludeId,
  o.limit,
];

/**
 * Active documents of `vault` (not `excludeId`) with evidence on a current triple whose subject
 * has one of `slugs`, or whose object has one and which is not itself a `caused_by` fact: the
 * documents that state a cause. Newest (authored, else modified) first, at most `limit`.
 */
export async function causeStatingDocuments(
  db: Queryable,
  opts: SlugQuery,
): Promise<CausalDocumentRow[]> {
  if (opts.slugs.length === 0) return [];
  const hits = `${triplesBy('subject', 'any', db.dialect)} UNION ${triplesBy('object', '<>', db.dialect)}`;
  return db.all<CausalDocumentRow>(documentsOf(hits, db.dialect), slugParams(opts, 2));
}

/**
 * Active documents of `vault` (not `excludeId`) with evidence on a current `caused_by` triple
 * whose cause (object) has one of `slugs`: the documents a writer of those entities may cause.
 * Newest first, at most `limit`.
 */
export async function causeNamingDocuments(
  db: Queryable,
  opts: SlugQuery,
): Promise<CausalDocumentRow[]> {
  if (opts.slugs.length === 0) return [];
  return db.all<CausalDocumentRow>(
    documentsOf(triplesBy('object', '=', db.dialect), db.dialect),
    slugParams(opts, 1),
  );
}

/** Active documents among `ids`, with their content. */
export async function activeDocumentContents(
  db: Queryable,
  ids: readonly number[],
): Promise<CausalDocumentRow[]> {
  if (ids.length === 0) return [];
  return db.all<CausalDocumentRow>(
    `SELECT id, content FROM vault_documents
     WHERE id IN ${jsonIds(db.dialect)} AND active = 1 ORDER BY id`,
    [list(ids)],
  );
}

/** Causal edges from (`end` 'source') or into `ids`, of any origin, with the other end. */
export async function causalEdgeEnds(
  db: Queryable,
  opts: { ids: readonly number[]; end: 'source' | 'target' },
): Promise<{ edgeId: number; fromId: number; toId: number; origin: string }[]> {
  if (opts.ids.length === 0) return [];
  const [from, to] =
    opts.end === 'source' ? ['source_id', 'target_id'] : ['target_id', 'source_id'];
  return db.all(
    `SELECT id AS "edgeId", ${from} AS "fromId", ${to} AS "toId", origin FROM vault_edges
     WHERE ${from} IN ${jsonIds(db.dialect)} AND edge_type = 'causal' ORDER BY id`,
    [list(opts.ids)],
  );
}

/** How many witnesses each of `edgeIds` has stored (absent: none). */
export async function causalWitnessCounts(
  db: Queryable,
  edgeIds: readonly number[],
): Promise<Map<number, number>> {
  if (edgeIds.length === 0) return new Map();
  const rows = await db.all<{ id: number; n: number }>(
    `SELECT edge_id AS id, COUNT(*) AS n FROM vault_causal_witnesses
     WHERE edge_id IN ${jsonIds(db.dialect)} GROUP BY edge_id`,
    [list(edgeIds)],
  );
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Deletes causal edges by id, with their witnesses. */
export async function deleteCausalEdges(tx: Queryable, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const inIds = `IN ${jsonIds(tx.dialect)}`;
  await tx.run(`DELETE FROM vault_causal_witnesses WHERE edge_id ${inIds}`, [list(ids)]);
  const { changes } = await tx.run(`DELETE FROM vault_edges WHERE id ${inIds}`, [list(ids)]);
  return changes;
}

export interface CausalWitnessInput {
  sourceFact: number;
  targetFact: number;
  sourceText: string;
  targetText: string;
  reasoning: string;
  confidence: number;
}

/**
 * Makes the edge's stored witnesses exactly `witnesses`: new pairs are inserted (strongest and
 * last seen now), a pair seen again takes its new texts and confidence and last_seen_at now
 * (strongest_at moves only when the confidence rose), pairs not listed are deleted.
 */
export async function replaceCausalWitnesses(
  tx: Queryable,
  edgeId: number,
  witnesses: readonly CausalWitnessInput[],
  now: number,
): Promise<void> {
  for (const w of witnesses) {
    const values: SqlValue[] = [w.sourceText, w.targetText, w.reasoning, w.confidence];
    await tx.run(
      `INSERT INTO vault_causal_witnesses(edge_id, source_fact, target_fact, source_text,
         target_text, reasoning, confidence, strongest_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(edge_id, source_fact, target_fact) DO UPDATE SET
         strongest_at = CASE WHEN excluded.confidence > vault_causal_witnesses.confidence
           THEN excluded.strongest_at ELSE vault_causal_witnesses.strongest_at END,
         source_text = excluded.source_text, target_text = excluded.target_text,
         reasoning = excluded.reasoning, confidence = excluded.confidence,
         last_seen_at = excluded.last_seen_at`,
      [edgeId, w.sourceFact, w.targetFact, ...values, now, now],
    );
  }
  const keep = list(witnesses.map((w) => `${w.sourceFact}:${w.targetFact}`));
  await tx.run(
    `DELETE FROM vault_causal_witnesses WHERE edge_id = ?
       AND (source_fact || ':' || target_fact) NOT IN ${jsonTexts(tx.dialect)}`,
    [edgeId, keep],
  );
}
