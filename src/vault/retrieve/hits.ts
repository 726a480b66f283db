// One result item of the vault's retrieval tools, compact or full, with the spec's score
// fields: `score` is the ranking score in compact output; in full output `score` is the raw
// channel score and `compositeScore` the ranking score (the same raw value on raw routes).
import type { DocCandidate } from './candidates.js';

export type ScoreBasis = 'fts-bm25' | 'vector-cosine' | 'composite';

/** Full content served per item at most (characters); longer content is cut and flagged. */
export const MAX_ITEM_CONTENT_CHARS = 4000;

export interface CompactHit {
  docid: string;
  path: string;
  title: string;
  score: number;
  snippet: string;
}

export interface FullHit extends CompactHit {
  collection: string;
  contentType: string;
  compositeScore: number;
  scoreBasis: ScoreBasis;
  pinned: boolean;
  modifiedAt: string;
  authoredAt: string | null;
  content: string;
  contentTruncated: boolean;
}

export type VaultHit = CompactHit | FullHit;

const iso = (ms: number): string => new Date(ms).toISOString();
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The item for `c`, ranked by `ranking` (raw or composite), raw channel score `raw`. */
export function hitOf(
  c: DocCandidate,
  scores: { ranking: number; raw: number; basis: ScoreBasis },
  compact: boolean,
): VaultHit {
  const base: CompactHit = {
    docid: `#${c.row.docid}`,
    path: c.row.path,
    title: c.row.title,
    score: round(compact ? scores.ranking : scores.raw),
    snippet: c.snippet,
  };
  if (compact) return base;
  const cut = c.row.content.length > MAX_ITEM_CONTENT_CHARS;
  return {
    ...base,
    collection: c.row.collection,
    contentType: c.row.contentType,
    compositeScore: round(scores.ranking),
    scoreBasis: scores.basis,
    pinned: c.row.pinned,
    modifiedAt: iso(c.row.modifiedAt),
    authoredAt: c.row.authoredAt === null ? null : iso(c.row.authoredAt),
    content: cut ? c.row.content.slice(0, MAX_ITEM_CONTENT_CHARS) : c.row.content,
    contentTruncated: cut,
  };
}
