// find_causal_links' reads: one causal step from a set of documents (both endpoints active,
// edges already taken skipped, heaviest first, bounded) and the stored witnesses of edges (how
// many each has, the strongest few). Portable SQL; id lists per dialect.
import { jsonIds } from './json-lists.js';
import type { Queryable } from './types.js';
import { causalWitnessCounts, type CausalWitnessInput } from './vault-causal-links.js';

const list = (values: readonly number[]): string => JSON.stringify([...values]);

export interface CausalStepRow {
  edgeId: number;
  /** The document the step started from, and the one it reached. */
  fromId: number;
  toId: number;
  sourceDocid: string;
  targetDocid: string;
  sourcePath: string;
  targetPath: string;
  weight: number;
  origin: string;
  reasoning: string | null;
  confidence: number | null;
  updatedAt: number;
}

/**
 * Causal edges from `fromIds` (`forward`: they are the source; else the target) whose two
 * documents are active, except `skipEdgeIds`; weight DESC, source docid, target docid; at most
 * `limit`.
 */
export async function causalStep(
  db: Queryable,
  opts: {
    fromIds: readonly number[];
    forward: boolean;
    skipEdgeIds: readonly number[];
    limit: number;
  },
): Promise<CausalStepRow[]> {
  if (opts.fromIds.length === 0 || opts.limit <= 0) return [];
  const [from, to] = opts.forward ? ['source_id', 'target_id'] : ['target_id', 'source_id'];
  return db.all<CausalStepRow>(
    `SELECT e.id AS "edgeId", e.${from} AS "fromId", e.${to} AS "toId", s.docid AS "sourceDocid",
       t.docid AS "targetDocid", s.path AS "sourcePath", t.path AS "targetPath", e.weight, e.origin,
       e.reasoning, e.confidence, e.updated_at AS "updatedAt"
     FROM vault_edges e
     JOIN vault_documents s ON s.id = e.source_id AND s.active = 1
     JOIN vault_documents t ON t.id = e.target_id AND t.active = 1
     WHERE e.${from} IN ${jsonIds(db.dialect)} AND e.edge_type = 'causal'
       AND e.id NOT IN ${jsonIds(db.dialect)}
     ORDER BY e.weight DESC, s.docid, t.docid LIMIT ?`,
    [list(opts.fromIds), list(opts.skipEdgeIds), opts.limit],
  );
}

export interface CausalWitnessRow extends CausalWitnessInput {
  edgeId: number;
  strongestAt: number;
  lastSeenAt: number;
}

/**
 * The stored witnesses of `edgeIds`: per edge how many, and the `keep` strongest (confidence
 * DESC, then the earliest strongest_at, then the fact ordinals).
 */
export async function causalWitnesses(
  db: Queryable,
  edgeIds: readonly number[],
  keep: number,
): Promise<{ counts: Map<number, number>; rows: CausalWitnessRow[] }> {
  if (edgeIds.length === 0) return { counts: new Map(), rows: [] };
  const ids = list(edgeIds);
  const counts = await causalWitnessCounts(db, edgeIds);
  const rows = await db.all<CausalWitnessRow>(
    `SELECT "edgeId", "sourceFact", "targetFact", "sourceText", "targetText", reasoning, confidence,
       "strongestAt", "lastSeenAt" FROM (
       SELECT edge_id AS "edgeId", source_fact AS "sourceFact", target_fact AS "targetFact",
         source_text AS "sourceText", target_text AS "targetText", reasoning, confidence,
         strongest_at AS "strongestAt", last_seen_at AS "lastSeenAt",
         ROW_NUMBER() OVER (PARTITION BY edge_id
           ORDER BY confidence DESC, strongest_at, source_fact, target_fact) AS rank
       FROM vault_causal_witnesses WHERE edge_id IN ${jsonIds(db.dialect)}) w
     WHERE rank <= ? ORDER BY "edgeId", rank`,
    [ids, keep],
  );
  return { counts, rows };
}
