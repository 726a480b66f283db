// Memory vocabulary: item kinds, scopes, the public shapes, and the small interfaces the
// memory service needs from an embedder and a scrubber (wired in by the core).

export const MEMORY_KINDS = ['fact', 'procedure', 'observation', 'document', 'chunk'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export const SEARCH_MODES = ['fts', 'vector', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Who may see an item. '' (or undefined) means "none": global on that axis. */
export interface Scope {
  tenantId?: string | undefined;
  teamId?: string | undefined;
  agentId?: string | undefined;
}

export interface MemoryItem {
  id: string;
  kind: MemoryKind;
  title: string;
  content: string;
  tags: string[];
  tenantId: string | null;
  teamId: string | null;
  agentId: string | null;
  procedureName?: string;
  version?: number;
  contentHash: string;
  createdAt: string;
  updatedAt: string;
}

/** `memory_get`'s answer: the item, a procedure's versions (newest first), and for an older version the current one. */
export interface GotItem {
  item: MemoryItem;
  versions?: MemoryItem[];
  /** Set when `item` is an older procedure version: the current (latest) version. */
  supersededBy?: { id: string; version: number };
}

export interface SearchHit {
  id: string;
  kind: MemoryKind;
  title: string;
  snippet: string;
  /**
   * Channel score: bm25 transform (fts), cosine similarity (vector), or for hybrid weighted
   * reciprocal-rank fusion (`rrf`, the default) or the weighted sum of z-scored channel scores
   * (`fused`, with fusion method `zscore`).
   */
  score: number;
  scoreBasis: 'fts-bm25' | 'vector-cosine' | 'fused' | 'rrf';
  /** 1-based rank in each channel's list, or null when the channel did not return it. */
  ranks: { fts: number | null; vector: number | null };
  tags: string[];
  teamId: string | null;
  agentId: string | null;
  procedureName?: string;
  version?: number;
  createdAt: string;
  /** With a relevance cut-off only: the cosine similarity (null when vectors did not return it). */
  cosine?: number | null;
  /** With a relevance cut-off only: below it (the dashboard hides it until asked). */
  weak?: boolean;
}

export interface SearchResult {
  mode: SearchMode;
  results: SearchHit[];
  /** With a relevance cut-off only (vector and hybrid): its rule and how many hits are weak. */
  cutoff?: { fusedRatio: number; cosineRatio: number; hidden: number };
  /** True when vector or hybrid was asked for but only full-text could answer. */
  degraded?: boolean;
  degradedReason?: string;
}

/** What memory needs from an embedding provider (src/embed implements it). */
export interface MemoryEmbedder {
  /** The vector space id; vectors of different models are never compared. */
  readonly model: string;
  warm(): void;
  isReady(): boolean;
  /**
   * Background work (the backlog) passes `{ priority: 'background' }`; queries pass nothing.
   * (src/embed's EmbedCallOptions, spelled out: this file is a model the dashboard imports.)
   */
  embed(
    texts: readonly string[],
    options?: { priority?: 'interactive' | 'background' },
  ): Promise<Float32Array[]>;
}

/** What memory needs from the secret scrubber. */
export interface MemoryScrubber {
  scrub(
    text: string,
  ): Promise<{ text: string; onlySentinels: boolean; findings: readonly unknown[] }>;
}

/** Largest content, in UTF-8 bytes, one item may hold. */
export const MAX_CONTENT_BYTES = 65_536;
