// Document candidates for the vault's retrieval tools: fragment hits of one channel (BM25 or
// cosine) grouped by document, the best fragment kept as the document's evidence, and the
// document's row turned into what the scorer reads. One place, so every tool scores alike.
import type {
  VaultDocumentRow,
  VaultFilter,
  VaultFragmentRow,
  VaultIndex,
} from '../../store/index.js';
import { type Candidate, ftsTransform } from '../scoring/index.js';

/** A document candidate: the scorer's view plus what an answer shows. */
export interface DocCandidate extends Candidate {
  readonly row: VaultDocumentRow;
  /** The fragment that scored best for this document. */
  readonly fragmentId: number;
  readonly snippet: string;
}

/** Fragments of a document kept when their document comes first (per tool call). */
export interface FragmentHit {
  readonly fragmentId: number;
  readonly documentId: number;
  /** The channel's raw score in [0, 1]: the BM25 transform or the cosine. */
  readonly score: number;
  readonly snippet: string;
}

/** The best fragment of each document, best document first (ties by fragment id). */
export function bestPerDocument(hits: readonly FragmentHit[]): FragmentHit[] {
  const best = new Map<number, FragmentHit>();
  for (const h of hits) {
    const seen = best.get(h.documentId);
    if (seen === undefined || h.score > seen.score) best.set(h.documentId, h);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.fragmentId - b.fragmentId);
}

/**
 * What the scorer reads from a document row and its channel score; `coActivations` is the
 * document's pair count with the other candidates of the same call.
 */
export function candidateOf(
  row: VaultDocumentRow,
  hit: FragmentHit,
  coActivations = 0,
): DocCandidate {
  return {
    row,
    path: row.path,
    fragmentId: hit.fragmentId,
    snippet: hit.snippet,
    searchScore: hit.score,
    contentType: row.contentType,
    effectiveAt: row.authoredAt ?? row.modifiedAt,
    confidence: row.confidence,
    quality: row.qualityScore,
    words: row.words,
    accessCount: row.accessCount,
    canonical: row.canonical,
    superseded: row.supersededBy !== null,
    coActivations,
    pinned: row.pinned,
  };
}

/**
 * Loads the rows of `hits`' documents and pairs them, in the hits' order, each with its
 * co-activations among these documents (sessions that read both).
 */
export async function candidatesOf(
  index: VaultIndex,
  vault: string,
  hits: readonly FragmentHit[],
): Promise<DocCandidate[]> {
  const ids = hits.map((h) => h.documentId);
  const [rows, co] = await Promise.all([
    index.documentsById(vault, ids),
    index.coActivations(vault, ids),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return hits.flatMap((h) => {
    const row = byId.get(h.documentId);
    return row === undefined ? [] : [candidateOf(row, h, co.get(h.documentId) ?? 0)];
  });
}

/** BM25 fragment hits for `query`, as transforms in [0, 1). */
export async function textHits(
  index: VaultIndex,
  query: string,
  filter: VaultFilter,
  depth: number,
): Promise<FragmentHit[]> {
  const hits = await index.fullText(query, filter, depth);
  return hits.map((h) => ({
    fragmentId: h.fragmentId,
    documentId: h.documentId,
    score: ftsTransform(h.bm25),
    snippet: h.snippet,
  }));
}

/**
 * The best-scoring fragment of each of the first `limit` documents BM25 ranks for `query`,
 * reading `fragmentsPerDoc` × `limit` fragments (documents have several matching fragments).
 */
export async function textDocHits(
  index: VaultIndex,
  query: string,
  filter: VaultFilter,
  limit: number,
  fragmentsPerDoc = 4,
): Promise<FragmentHit[]> {
  const hits = await textHits(index, query, filter, limit * fragmentsPerDoc);
  return bestPerDocument(hits).slice(0, limit);
}

/** The first `maxChars` of a fragment's text, on a word boundary, for a vector hit's snippet. */
export function leadSnippet(fragment: Pick<VaultFragmentRow, 'text'>, maxChars = 240): string {
  const text = fragment.text.replace(/\s+/g, ' ').trim();
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf(' ', maxChars);
  return `${text.slice(0, cut > maxChars / 2 ? cut : maxChars)}…`;
}
