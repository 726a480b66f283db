// Named operations on the model extraction state of vault documents (migration 31): which
// active documents still wait for the configured extractor (no row for their content and
// extractor, or a failure with attempts left), the outcome of one attempt, and the per-vault
// totals the status read-out shows. Portable SQL.
import type { Queryable } from './types.js';

/** One document waiting for the model extractor. */
export interface VaultExtractionTodo {
  id: number;
  vault: string;
  content: string;
  contentHash: string;
  modifiedAt: number;
}

export interface VaultExtractionOutcome {
  documentId: number;
  extractor: string;
  contentHash: string;
  status: 'done' | 'failed';
  reason: string | null;
  facts: number;
  dropped: number;
}

export interface VaultExtractionTotals {
  pending: number;
  done: number;
  failed: number;
  /** Model triples dropped by validation, over the documents whose state is current. */
  dropped: number;
  /** Failure reasons of current failed rows, most frequent first (at most 5). */
  reasons: { reason: string; documents: number }[];
}

/** Rows for this extractor and the document's current content (the join's condition). */
const CURRENT = `e.document_id = d.id AND e.extractor = ? AND e.content_hash = d.content_hash`;
/** The document still needs the extractor: no current row, or a failure with attempts left. */
const WAITING = `d.active = 1 AND NOT EXISTS (SELECT 1 FROM vault_extractions e
  WHERE ${CURRENT} AND (e.status = 'done' OR e.attempts >= ?))`;

/** Active documents above `after` (ascending id) waiting for `extractor`, at most `limit`. */
export async function documentsToExtract(
  db: Queryable,
  opts: { extractor: string; maxAttempts: number; after: number; limit: number },
): Promise<VaultExtractionTodo[]> {
  return db.all<VaultExtractionTodo>(
    `SELECT d.id, d.vault, d.content, d.content_hash AS "contentHash", d.modified_at AS "modifiedAt"
     FROM vault_documents d WHERE ${WAITING} AND d.id > ? ORDER BY d.id LIMIT ?`,
    [opts.extractor, opts.maxAttempts, opts.after, opts.limit],
  );
}

/** Active documents (of `vault`, else all) waiting for `extractor`. */
export async function pendingExtractions(
  db: Queryable,
  opts: { extractor: string; maxAttempts: number; vault?: string | undefined },
): Promise<number> {
  const inVault = opts.vault === undefined ? '' : ' AND d.vault = ?';
  const row = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM vault_documents d WHERE ${WAITING}${inVault}`,
    [opts.extractor, opts.maxAttempts, ...(opts.vault === undefined ? [] : [opts.vault])],
  );
  return row?.n ?? 0;
}

/** True when the document is active and its content still hashes to `contentHash`. */
export async function documentUnchanged(
  tx: Queryable,
  documentId: number,
  contentHash: string,
): Promise<boolean> {
  const row = await tx.get<{ id: number }>(
    'SELECT id FROM vault_documents WHERE id = ? AND active = 1 AND content_hash = ?',
    [documentId, contentHash],
  );
  return row !== undefined;
}

/**
 * Records one attempt's outcome. A failure of the same extractor over the same content counts
 * one more attempt; anything else starts the count at one.
 */
export async function recordExtraction(
  tx: Queryable,
  o: VaultExtractionOutcome,
  now: number,
): Promise<void> {
  await tx.run(
    `INSERT INTO vault_extractions(document_id, extractor, content_hash, status, reason, facts,
       dropped, attempts, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)
     ON CONFLICT(document_id) DO UPDATE SET
       attempts = CASE WHEN vault_extractions.extractor = excluded.extractor
         AND vault_extractions.content_hash = excluded.content_hash
         AND vault_extractions.status = 'failed' AND excluded.status = 'failed'
         THEN vault_extractions.attempts + 1 ELSE 1 END,
       extractor = excluded.extractor, content_hash = excluded.content_hash,
       status = excluded.status, reason = excluded.reason, facts = excluded.facts,
       dropped = excluded.dropped, updated_at = excluded.updated_at`,
    [o.documentId, o.extractor, o.contentHash, o.status, o.reason, o.facts, o.dropped, now],
  );
}

/** Forgets a document's extraction state (its facts were just rewritten deterministically). */
export async function clearExtraction(tx: Queryable, documentId: number): Promise<void> {
  await tx.run('DELETE FROM vault_extractions WHERE document_id = ?', [documentId]);
}

/** Pending, done and failed active documents of `vault` for `extractor`, and why they failed. */
export async function extractionTotals(
  db: Queryable,
  opts: { extractor: string; maxAttempts: number; vault: string },
): Promise<VaultExtractionTotals> {
  const pending = await pendingExtractions(db, opts);
  const join = `FROM vault_documents d JOIN vault_extractions e ON ${CURRENT}
    WHERE d.active = 1 AND d.vault = ?`;
  const params = [opts.extractor, opts.vault];
  const sums = await db.get<{ done: number | null; failed: number | null; dropped: number | null }>(
    `SELECT SUM(CASE WHEN e.status = 'done' THEN 1 ELSE 0 END) AS done,
       SUM(CASE WHEN e.status = 'failed' THEN 1 ELSE 0 END) AS failed,
       SUM(e.dropped) AS dropped ${join}`,
    params,
  );
  const reasons = await db.all<{ reason: string; documents: number }>(
    `SELECT e.reason AS reason, COUNT(*) AS documents ${join} AND e.status = 'failed'
     GROUP BY e.reason ORDER BY documents DESC, reason LIMIT 5`,
    params,
  );
  return {
    pending,
    done: sums?.done ?? 0,
    failed: sums?.failed ?? 0,
    dropped: sums?.dropped ?? 0,
    reasons: reasons.map((r) => ({ reason: r.reason ?? 'unknown', documents: r.documents })),
  };
}
