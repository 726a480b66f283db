// Named operations for extracted facts in the knowledge graph (migration 29's tables): a
// document's facts replace its evidence, triples left without evidence are ended (valid_to set,
// status 'retracted'), and kg_query's reads (triples touching entities as of a time, their
// evidence joined to vault documents). Portable SQL; lists per dialect.
import { jsonIds, jsonTexts, textList } from './json-lists.js';
import type { Queryable } from './types.js';

/** The evidence key prefix of a vault document: `vault-doc:<row id>`. */
export const VAULT_DOC = 'vault-doc:';

/** SQL: whether the evidence key in `column` names a vault document (a case-exact prefix). */
export const isVaultDocKey = (column: string): string =>
  `substr(${column}, 1, ${VAULT_DOC.length}) = '${VAULT_DOC}'`;

/**
 * SQL: the vault document id in the evidence key in `column`, NULL for another key (never a
 * cast of a foreign key, which PostgreSQL would refuse wherever the planner evaluates it).
 */
export const vaultDocIdOf = (column: string): string =>
  `CAST(CASE WHEN ${isVaultDocKey(column)} THEN substr(${column}, ${VAULT_DOC.length + 1}) END AS INTEGER)`;

const list = (values: readonly (string | number)[]): string => JSON.stringify([...values]);

export interface FactTripleInput {
  subject: string;
  subjectSlug: string;
  predicate: string;
  object: string;
  objectSlug: string;
  /** The sentence the triple came from. */
  fact: string;
}

export interface FactTripleRow {
  id: number;
  subject: string;
  predicate: string;
  object: string;
  validFrom: number | null;
  validTo: number | null;
  confidence: number;
  status: string;
}

export interface FactEvidenceRow {
  tripleId: number;
  document: string;
  fact: string;
  observedAt: number;
  /** Null when the evidence names no vault document (an explicit write). */
  docid: string | null;
  collection: string | null;
  path: string | null;
}

/** The entity of `slug` in the graph (its stored name), created under `name` when missing. */
async function entityName(
  tx: Queryable,
  graphId: number,
  name: string,
  slug: string,
  now: number,
): Promise<string> {
  const found = await tx.get<{ name: string }>(
    'SELECT name FROM graph_entities WHERE graph_id = ? AND slug = ? ORDER BY id LIMIT 1',
    [graphId, slug],
  );
  if (found !== undefined) return found.name;
  await tx.run(
    `INSERT INTO graph_entities(graph_id, name, entity_type, slug, created_at, updated_at)
     VALUES (?, ?, 'extracted', ?, ?, ?) ON CONFLICT(graph_id, name) DO NOTHING`,
    [graphId, name, slug, now, now],
  );
  return name;
}

/** The current triple's id, inserted (valid from `at`) when there is none. */
async function currentTriple(
  tx: Queryable,
  graphId: number,
  t: { subject: string; predicate: string; object: string },
  at: number,
  now: number,
): Promise<number> {
  const where = `graph_id = ? AND subject = ? AND object = ? AND predicate = ? AND status = 'current'`;
  const params = [graphId, t.subject, t.object, t.predicate];
  const row = await tx.get<{ id: number }>(`SELECT id FROM graph_triples WHERE ${where}`, params);
  if (row !== undefined) return row.id;
  const made = await tx.get<{ id: number }>(
    `INSERT INTO graph_triples(graph_id, subject, predicate, object, valid_from, created_at,
       updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [graphId, t.subject, t.predicate, t.object, at, now, now],
  );
  if (made === undefined) throw new Error('graph triple insert returned nothing');
  return made.id;
}

/**
 * Replaces the evidence `document` gives in the graph with `facts` (observed at `at`), then
 * ends every triple that lost its last evidence. An unchanged fact list changes nothing but
 * the evidence rows' own timestamps. Returns how many triples were ended.
 */
export async function replaceDocumentFacts(
  tx: Queryable,
  graphId: number,
  document: string,
  facts: readonly FactTripleInput[],
  at: number,
  now: number,
): Promise<number> {
  const inGraph = 'triple_id IN (SELECT id FROM graph_triples WHERE graph_id = ?)';
  const touched = await tx.all<{ id: number }>(
    `SELECT DISTINCT triple_id AS id FROM graph_evidence WHERE document = ? AND ${inGraph}`,
    [document, graphId],
  );
  await tx.run(`DELETE FROM graph_evidence WHERE document = ? AND ${inGraph}`, [document, graphId]);
  for (const f of facts) {
    const subject = await entityName(tx, graphId, f.subject, f.subjectSlug, now);
    const object = await entityName(tx, graphId, f.object, f.objectSlug, now);
    const id = await currentTriple(
      tx,
      graphId,
      { subject, predicate: f.predicate, object },
      at,
      now,
    );
    await tx.run(
      `INSERT INTO graph_evidence(triple_id, document, fact, observed_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(triple_id, document, fact) DO NOTHING`,
      [id, document, f.fact, at],
    );
  }
  if (touched.length === 0) return 0;
  const { changes } = await tx.run(
    `UPDATE graph_triples SET status = 'retracted', valid_to = ?, updated_at = ?
     WHERE id IN ${jsonIds(tx.dialect)} AND status = 'current'
       AND NOT EXISTS (SELECT 1 FROM graph_evidence e WHERE e.triple_id = graph_triples.id)`,
    [now, now, list(touched.map((t) => t.id))],
  );
  return changes;
}

/**
 * Triples with an endpoint among `names`: the current ones when `asOf` is null, else every
 * triple valid at `asOf` (valid_from at or before it, valid_to after it or open), whatever
 * its status now. Oldest first, at most `limit`.
 */
export async function factTriples(
  db: Queryable,
  graphId: number,
  names: readonly string[],
  opts: { direction: 'outgoing' | 'incoming' | 'both'; asOf: number | null; limit: number },
): Promise<FactTripleRow[]> {
  const ends: string[] = [];
  if (opts.direction !== 'incoming') ends.push(`subject IN ${jsonTexts(db.dialect)}`);
  if (opts.direction !== 'outgoing') ends.push(`object IN ${jsonTexts(db.dialect)}`);
  const when =
    opts.asOf === null
      ? "status = 'current'"
      : '(valid_from IS NULL OR valid_from <= ?) AND (valid_to IS NULL OR valid_to > ?)';
  const params = [graphId, ...ends.map(() => textList(db.dialect, names))];
  if (opts.asOf !== null) params.push(opts.asOf, opts.asOf);
  return db.all<FactTripleRow>(
    `SELECT id, subject, predicate, object, valid_from AS "validFrom", valid_to AS "validTo",
       confidence, status FROM graph_triples
     WHERE graph_id = ? AND (${ends.join(' OR ')}) AND ${when} ORDER BY id LIMIT ?`,
    [...params, opts.limit],
  );
}

/**
 * Evidence of the triples: per triple, how many (document, fact) pairs and the newest `keep`
 * of them, each with the vault document it names (null fields for other evidence).
 */
export async function factEvidence(
  db: Queryable,
  tripleIds: readonly number[],
  keep: number,
): Promise<{ counts: Map<number, number>; rows: FactEvidenceRow[] }> {
  if (tripleIds.length === 0) return { counts: new Map(), rows: [] };
  const ids = list(tripleIds);
  const counted = await db.all<{ id: number; n: number }>(
    `SELECT triple_id AS id, COUNT(*) AS n FROM graph_evidence
     WHERE triple_id IN ${jsonIds(db.dialect)} GROUP BY triple_id`,
    [ids],
  );
  const rows = await db.all<FactEvidenceRow>(
    `SELECT r."tripleId", r.document, r.fact, r."observedAt", d.docid, c.name AS collection, d.path
     FROM (SELECT triple_id AS "tripleId", document, fact, observed_at AS "observedAt",
             ROW_NUMBER() OVER (PARTITION BY triple_id
               ORDER BY observed_at DESC, document, fact) AS rank
           FROM graph_evidence WHERE triple_id IN ${jsonIds(db.dialect)}) r
     LEFT JOIN vault_documents d
       ON d.id = ${vaultDocIdOf('r.document')}
     LEFT JOIN vault_collections c ON c.id = d.collection_id
     WHERE r.rank <= ? ORDER BY r."tripleId", r.rank`,
    [ids, keep],
  );
  return { counts: new Map(counted.map((c) => [c.id, c.n])), rows };
}

/** The names of the graph's entities whose slug is `slug`. */
export async function entityNamesBySlug(
  db: Queryable,
  graphId: number,
  slug: string,
): Promise<string[]> {
  const rows = await db.all<{ name: string }>(
    'SELECT name FROM graph_entities WHERE graph_id = ? AND slug = ? ORDER BY id',
    [graphId, slug],
  );
  return rows.map((r) => r.name);
}
