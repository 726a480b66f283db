// Named operations behind the vault's `profile`: the graph's current facts of some predicates
// ranked by evidence, documents of some content types (optionally since a time, or with an open
// frontmatter status), and the cached profile row of migration 30's vault_profiles.
import { jsonStringField } from './json-fields.js';
import { jsonTexts } from './json-lists.js';
import type { Queryable, SqlValue } from './types.js';
import { documentConditions } from './vault-filter.js';
import type { VaultFilter } from './vault-types.js';

const list = (values: readonly string[]): string => JSON.stringify([...values]);

export interface ProfileFactRow {
  id: number;
  subject: string;
  predicate: string;
  object: string;
  evidenceCount: number;
  /** observed_at of the newest evidence. */
  newestAt: number;
}

/**
 * Current triples of the graph whose predicate is among `predicates` and which have evidence:
 * most evidence first, then the newest evidence, then the oldest triple. At most `limit`, with
 * how many there are in all.
 */
export async function profileFacts(
  db: Queryable,
  graphId: number,
  predicates: readonly string[],
  limit: number,
): Promise<{ rows: ProfileFactRow[]; total: number }> {
  const where = `t.graph_id = ? AND t.status = 'current'
    AND t.predicate IN ${jsonTexts(db.dialect)}`;
  const params: SqlValue[] = [graphId, list(predicates)];
  const rows = await db.all<ProfileFactRow>(
    `SELECT t.id, t.subject, t.predicate, t.object, COUNT(*) AS "evidenceCount",
       MAX(e.observed_at) AS "newestAt"
     FROM graph_triples t JOIN graph_evidence e ON e.triple_id = t.id
     WHERE ${where}
     GROUP BY t.id, t.subject, t.predicate, t.object
     ORDER BY COUNT(*) DESC, MAX(e.observed_at) DESC, t.id LIMIT ?`,
    [...params, limit],
  );
  const counted = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM graph_triples t WHERE ${where}
       AND EXISTS (SELECT 1 FROM graph_evidence e WHERE e.triple_id = t.id)`,
    params,
  );
  return { rows, total: counted?.n ?? 0 };
}

/** Current triples of the graph (any predicate). */
export async function countCurrentTriples(db: Queryable, graphId: number): Promise<number> {
  const row = await db.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM graph_triples WHERE graph_id = ? AND status = 'current'",
    [graphId],
  );
  return row?.n ?? 0;
}

export interface ProfileDocumentRow {
  id: number;
  docid: string;
  collection: string;
  path: string;
  title: string;
  contentType: string;
  contentHash: string;
  /** The effective time: authored_at, else modified_at. */
  at: number;
  /** The frontmatter `status`, when it is a string. */
  status: string | null;
}

export interface ProfileDocumentQuery {
  /** Content types to keep (none: any type). */
  types?: readonly string[];
  /** Only documents whose effective time is at or after this (ms). */
  since?: number;
  /** Only documents whose frontmatter `status` is one of these (lower case). */
  statuses?: readonly string[];
  limit: number;
}

/**
 * Documents passing `filter` and the query, newest effective time first (then the higher id):
 * at most `limit`, with how many match in all.
 */
export async function profileDocuments(
  db: Queryable,
  filter: VaultFilter,
  q: ProfileDocumentQuery,
): Promise<{ rows: ProfileDocumentRow[]; total: number }> {
  const cond = documentConditions(filter);
  const parts = [cond.sql];
  const params: SqlValue[] = [...cond.params];
  if (q.types !== undefined) {
    parts.push(`d.content_type IN ${jsonTexts(db.dialect)}`);
    params.push(list(q.types));
  }
  if (q.since !== undefined) {
    parts.push('COALESCE(d.authored_at, d.modified_at) >= ?');
    params.push(q.since);
  }
  const status = jsonStringField(db.dialect, 'd.frontmatter', 'status');
  if (q.statuses !== undefined) {
    parts.push(`lower(${status}) IN ${jsonTexts(db.dialect)}`);
    params.push(list(q.statuses));
  }
  const from = `FROM vault_documents d JOIN vault_collections c ON c.id = d.collection_id
    WHERE ${parts.join(' AND ')}`;
  const rows = await db.all<ProfileDocumentRow>(
    `SELECT d.id, d.docid, c.name AS collection, d.path, d.title, d.content_type AS "contentType",
       d.content_hash AS "contentHash", COALESCE(d.authored_at, d.modified_at) AS at,
       ${status} AS status
     ${from} ORDER BY at DESC, d.id DESC LIMIT ?`,
    [...params, q.limit],
  );
  const counted = await db.get<{ n: number }>(`SELECT COUNT(*) AS n ${from}`, params);
  return { rows, total: counted?.n ?? 0 };
}

export interface VaultProfileRow {
  /** JSON text. */
  staticFacts: string;
  /** JSON text. */
  dynamicContext: string;
  sourceHash: string;
  builtAt: number;
}

/** The cached profile of the vault, if one was built. */
export async function readVaultProfile(
  db: Queryable,
  vault: string,
): Promise<VaultProfileRow | undefined> {
  return db.get<VaultProfileRow>(
    `SELECT static_facts AS "staticFacts", dynamic_context AS "dynamicContext",
       source_hash AS "sourceHash", built_at AS "builtAt" FROM vault_profiles WHERE vault = ?`,
    [vault],
  );
}

/** Stores (replaces) the vault's cached profile. */
export async function writeVaultProfile(
  tx: Queryable,
  vault: string,
  row: VaultProfileRow,
): Promise<void> {
  await tx.run(
    `INSERT INTO vault_profiles(vault, static_facts, dynamic_context, source_hash, built_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(vault) DO UPDATE SET static_facts = excluded.static_facts,
       dynamic_context = excluded.dynamic_context, source_hash = excluded.source_hash,
       built_at = excluded.built_at`,
    [vault, row.staticFacts, row.dynamicContext, row.sourceHash, row.builtAt],
  );
}
