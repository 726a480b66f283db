// The vault's row shapes and filters as the store hands them to src/vault: documents, fragments,
// collections, search hits and the retrieval filter. Plain data, no driver types.

/** The internal collection of system documents (observations, deductions, handoffs, diary). */
export const INTERNAL_COLLECTION = '_clawmem';

export type VaultOrigin = 'fs' | 'api';
export type FragmentKind = 'heading' | 'list' | 'code' | 'paragraph' | 'whole';

export interface VaultCollectionRow {
  id: number;
  vault: string;
  name: string;
  /** The directory synced into it ('' for the internal collection). */
  contentRoot: string;
  pattern: string;
  createdAt: number;
  lastSyncedAt: number | null;
}

/** What a sync (or an API save) writes for one document. */
export interface VaultDocumentInput {
  vault: string;
  collectionId: number;
  path: string;
  title: string;
  contentType: string;
  frontmatter: Readonly<Record<string, unknown>>;
  /** The scrubbed text, frontmatter included (what `get` serves). */
  content: string;
  contentHash: string;
  size: number;
  mtime: number;
  lines: number;
  words: number;
  modifiedAt: number;
  authoredAt: number | null;
  /** From frontmatter; null keeps the stored value (0.5 for a new document). */
  confidence: number | null;
  quality: number | null;
  origin: VaultOrigin;
  now: number;
}

export interface VaultDocumentRow {
  id: number;
  vault: string;
  collectionId: number;
  collection: string;
  path: string;
  /** Six or more hex digits, without the '#'. */
  docid: string;
  title: string;
  contentType: string;
  frontmatter: Record<string, unknown>;
  content: string;
  contentHash: string;
  size: number;
  mtime: number;
  lines: number;
  words: number;
  createdAt: number;
  modifiedAt: number;
  authoredAt: number | null;
  origin: VaultOrigin;
  active: boolean;
  deactivatedAt: number | null;
  deactivationReason: string | null;
  pinned: boolean;
  snoozedUntil: number | null;
  archivedAt: number | null;
  accessCount: number;
  lastAccessedAt: number | null;
  confidence: number;
  qualityScore: number;
  canonical: boolean;
  supersededBy: number | null;
}

/** A document without its content: listings, timelines, globs. */
export type VaultDocumentMeta = Omit<VaultDocumentRow, 'content' | 'frontmatter'>;

/** What an incremental sync compares against the disk. */
export interface VaultSyncState {
  id: number;
  path: string;
  size: number;
  mtime: number;
  contentHash: string;
  origin: VaultOrigin;
  active: boolean;
  deactivationReason: string | null;
}

export interface VaultFragmentInput {
  ordinal: number;
  kind: FragmentKind;
  /** Enclosing headings joined by ' > ' ('' above the first heading). */
  headingPath: string;
  startLine: number;
  endLine: number;
  text: string;
}

export interface VaultFragmentRow extends VaultFragmentInput {
  id: number;
  documentId: number;
}

/**
 * Which documents a retrieval sees. Always one vault; active documents only. Collections:
 * the named ones, else all of the vault; `_clawmem` only when named or `includeInternal`.
 */
export interface VaultFilter {
  vault: string;
  collections?: readonly string[] | undefined;
  includeInternal?: boolean | undefined;
  /** Also documents snoozed past `now` (default: hidden). */
  includeSnoozed?: boolean | undefined;
  /** Also archived documents (default: hidden); `onlyArchived` shows nothing else. */
  includeArchived?: boolean | undefined;
  onlyArchived?: boolean | undefined;
  /** The clock snooze is judged against, ms. */
  now: number;
}

export interface VaultTextHit {
  fragmentId: number;
  documentId: number;
  /** The raw BM25 relevance: positive, unbounded, higher is better, comparable within a query. */
  bm25: number;
  /** The fragment's text around the best window of query terms, matches in «». */
  snippet: string;
}

export interface VaultVectorHit {
  fragmentId: number;
  documentId: number;
  /** Cosine similarity (1 = same direction). */
  cosine: number;
}

/** A fragment waiting for a vector, with what it is embedded as. */
export interface VaultFragmentToEmbed {
  id: number;
  title: string;
  headingPath: string;
  text: string;
}
