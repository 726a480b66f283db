// Which document memory_pin, memory_snooze and memory_forget act on: the spec's four-strategy
// cascade (exact path or docid → BM25 → title-token overlap → vector), each tried only when the
// one before found nothing, and the confidence gate destructive calls obey (top ≥ 0.7, or a
// ≥ 0.2 gap to the runner-up when there is one; a lone weak match is not confident).
import { proseTokenizer } from '../../search/index.js';
import type { VaultDocumentMeta, VaultFilter } from '../../store/index.js';
import { textDocHits } from './candidates.js';
import type { RetrieveDeps } from './search.js';
import { nearestDocs, queryVector } from './vector.js';

export type TargetStrategy = 'path' | 'bm25' | 'title' | 'vector' | 'none';

export const CONFIDENT_SCORE = 0.7;
export const CONFIDENT_GAP = 0.2;
/** Candidates a cascade step returns. */
const STEP_LIMIT = 5;

export interface TargetCandidate {
  readonly documentId: number;
  readonly docid: string;
  readonly path: string;
  readonly title: string;
  readonly collection: string;
  readonly score: number;
}

export interface Target {
  readonly strategy: TargetStrategy;
  readonly candidates: readonly TargetCandidate[];
  /** The top candidate passes the gate. */
  readonly confident: boolean;
}

const looksLikePath = (q: string): boolean => q.includes('/') || /\.md$/i.test(q.trim());

/** The gate: top ≥ 0.7, or top − runner-up ≥ 0.2 when there are two or more. */
export function isConfident(scores: readonly number[]): boolean {
  const [top, second] = scores;
  if (top === undefined) return false;
  if (top >= CONFIDENT_SCORE) return true;
  return second !== undefined && top - second >= CONFIDENT_GAP;
}

function asCandidate(d: VaultDocumentMeta, score: number): TargetCandidate {
  return {
    documentId: d.id,
    docid: `#${d.docid}`,
    path: d.path,
    title: d.title,
    collection: d.collection,
    score,
  };
}

async function byPath(
  deps: RetrieveDeps,
  filter: VaultFilter,
  q: string,
): Promise<TargetCandidate[]> {
  const trimmed = q.trim();
  if (/^#?[0-9a-f]{6,}$/i.test(trimmed) && trimmed.startsWith('#')) {
    const d = await deps.index.documentByDocid(filter.vault, trimmed.slice(1).toLowerCase());
    return d === undefined || !d.active ? [] : [asCandidate(d, 1)];
  }
  if (!looksLikePath(trimmed)) return [];
  const docs = await deps.index.documentsAtPath(filter.vault, trimmed.replace(/^\.?\//, ''));
  return docs.filter((d) => d.active).map((d) => asCandidate(d, 1));
}

async function byText(
  deps: RetrieveDeps,
  filter: VaultFilter,
  q: string,
): Promise<TargetCandidate[]> {
  const hits = await textDocHits(deps.index, q, filter, STEP_LIMIT, 8);
  const rows = await deps.index.documentsById(
    filter.vault,
    hits.map((h) => h.documentId),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return hits.flatMap((h) => {
    const row = byId.get(h.documentId);
    return row === undefined ? [] : [asCandidate(row, h.score)];
  });
}

/** Share of the query's content terms found in each title. */
async function byTitle(
  deps: RetrieveDeps,
  filter: VaultFilter,
  q: string,
): Promise<TargetCandidate[]> {
  const terms = proseTokenizer.queryTerms(q);
  if (terms.length === 0) return [];
  const docs = await deps.index.listDocuments(filter.vault, {
    ...(filter.collections === undefined ? {} : { collections: filter.collections }),
  });
  return docs
    .map((d) => {
      const title = new Set(proseTokenizer.queryTerms(d.title));
      return asCandidate(d, terms.filter((t) => title.has(t)).length / terms.length);
    })
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1))
    .slice(0, STEP_LIMIT);
}

async function byVector(
  deps: RetrieveDeps,
  filter: VaultFilter,
  q: string,
): Promise<TargetCandidate[]> {
  if (deps.embedder === null) return [];
  const v = await queryVector(deps.embedder, q);
  const near = await nearestDocs(deps.index, deps.embedder.model, v, filter, STEP_LIMIT);
  const rows = await deps.index.documentsById(
    filter.vault,
    near.hits.map((h) => h.documentId),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return near.hits.flatMap((h) => {
    const row = byId.get(h.documentId);
    return row === undefined ? [] : [asCandidate(row, Math.max(0, h.score))];
  });
}

/** Runs the cascade for `query` over the documents `filter` admits. */
export async function findTarget(
  deps: RetrieveDeps,
  filter: VaultFilter,
  query: string,
): Promise<Target> {
  const steps: [TargetStrategy, typeof byPath][] = [
    ['path', byPath],
    ['bm25', byText],
    ['title', byTitle],
    ['vector', byVector],
  ];
  for (const [strategy, step] of steps) {
    const candidates = await step(deps, filter, query);
    if (candidates.length > 0) {
      return { strategy, candidates, confident: isConfident(candidates.map((c) => c.score)) };
    }
  }
  return { strategy: 'none', candidates: [], confident: false };
}
