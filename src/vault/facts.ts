// Extracted facts of vault documents in the knowledge graph: a written document's facts
// replace its evidence in its vault's graph (`vault:<name>`), a deactivated document's evidence
// is removed, and triples left without evidence are ended (valid_to set, status retracted).
// Cross-document causal links follow the facts in the same transaction (causal.ts).
import type { ExtractedFact } from '../graph/extract/index.js';
import {
  activeDocumentContents,
  clearExtraction,
  type Queryable,
  replaceDocumentFacts,
  type Store,
  VAULT_DOC,
} from '../store/index.js';
import { dropCausalLinks, deriveCausalLinks } from './causal.js';
import { documentFacts } from './fact-text.js';

export { factText } from './fact-text.js';

/** The graph a vault's facts live in (kept apart from cairn-graph's `default`). */
export const vaultGraphName = (vault: string): string => `vault:${vault}`;

/** The evidence key of a vault document row. */
export const documentEvidenceKey = (documentId: number): string => `${VAULT_DOC}${documentId}`;

/**
 * Writes the deterministic facts of one document (its current content) in the caller's
 * transaction, and forgets its model extraction state (the background backlog redoes it).
 */
export async function recordDocumentFacts(
  store: Store,
  tx: Queryable,
  doc: { vault: string; id: number; content: string; at: number; now: number },
): Promise<void> {
  await clearExtraction(tx, doc.id);
  await writeDocumentFacts(store, tx, doc, documentFacts(doc.content));
}

/**
 * Replaces one document's facts with `facts` (however extracted) in the caller's transaction,
 * then derives its causal links again.
 */
export async function writeDocumentFacts(
  store: Store,
  tx: Queryable,
  doc: { vault: string; id: number; at: number; now: number },
  facts: readonly ExtractedFact[],
): Promise<void> {
  const existing = await store.graphIndex.findGraph(tx, vaultGraphName(doc.vault));
  if (facts.length === 0 && existing === undefined) return;
  const graphId =
    existing ?? (await store.graphIndex.ensureGraph(tx, vaultGraphName(doc.vault), doc.now));
  await replaceDocumentFacts(tx, graphId, documentEvidenceKey(doc.id), facts, doc.at, doc.now);
  await deriveCausalLinks(tx, { vault: doc.vault, graphId, id: doc.id, facts, now: doc.now });
}

/**
 * Writes again the facts (and causal links) of reactivated documents whose content did not
 * change: deactivation removed their evidence, and an unchanged document is not rewritten.
 */
export async function restoreDocumentFacts(
  store: Store,
  tx: Queryable,
  vault: string,
  ids: readonly number[],
  now: number,
): Promise<void> {
  for (const d of await activeDocumentContents(tx, ids))
    await recordDocumentFacts(store, tx, { vault, id: d.id, content: d.content, at: now, now });
}

/** Removes the evidence of deactivated documents, ending triples left without any. */
export async function dropDocumentFacts(
  store: Store,
  tx: Queryable,
  vault: string,
  ids: readonly number[],
  now: number,
): Promise<void> {
  if (ids.length === 0) return;
  const graphId = await store.graphIndex.findGraph(tx, vaultGraphName(vault));
  if (graphId === undefined) return;
  for (const id of ids)
    await replaceDocumentFacts(tx, graphId, documentEvidenceKey(id), [], now, now);
  await dropCausalLinks(tx, { vault, graphId, ids, now });
}
