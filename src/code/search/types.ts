// The vocabulary of code search (search_code): what a search takes, what each hit and the whole
// answer carry (status, index age and freshness, scores and their basis, truncation), and the
// options of createCodeSearch. Types and defaults only.
import type { Embedder } from '../../embed/index.js';
import type { FusionOptions } from '../../search/index.js';

/** search_code's parameters, camel-cased (`min_score` is `minScore`). */
export interface CodeSearchInput {
  query: string;
  /** A collection name; all collections when absent. */
  collection?: string | undefined;
  /** File extensions (`ts`, `.ts`, `*.ts`); any of them. */
  extensions?: readonly string[] | undefined;
  /** `key:value` filters (filters.ts): path, lang, branch, kind, symbol, ext. */
  filters?: readonly string[] | undefined;
  /** Results at most, 1–100 (default 10). */
  limit?: number | undefined;
  /** Drop results whose final score (0–1, see `scoreBasis`) is below this. */
  minScore?: number | undefined;
}

/**
 * What a score is: `fts-bm25` bm25 / (1 + bm25); `vector-cosine` the cosine similarity (no
 * chunk held a query term); `rrf` reciprocal-rank fusion divided by its maximum (1 = first in
 * both lists); `fused` (z-score fusion) the logistic of the reranker's score over the fused
 * top (CODE_RERANK), then of the fused z-score, capped so it never rises. All in [0, 1].
 */
export type ScoreBasis = 'fts-bm25' | 'vector-cosine' | 'rrf' | 'fused';

export interface CodeSearchHit {
  collection: string;
  path: string;
  /** '' is the work tree, else the ref the file was indexed from. */
  branch: string;
  /** null: a file without a grammar (line windows). */
  language: string | null;
  kind: string;
  symbol: string | null;
  signature: string | null;
  /** The chunk's lines in its file, 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** Whole lines of the chunk around the best match (at most 8 of 160 characters). */
  snippet: string;
  /**
   * The snippet's file lines and those holding a query term; null for a container's outline
   * (class, interface, …: its text elides member bodies, so its lines are not the file's).
   */
  snippetLines: { start: number; end: number; matches: number[] } | null;
  score: number;
  scoreBasis: ScoreBasis;
  /** 1-based rank in each channel's list, null when that channel did not return the chunk. */
  ranks: { fts: number | null; vector: number | null };
}

/**
 * `ok`: results; `no_match`: nothing matched the query; `empty_index`: no collection, or no
 * chunk in the ones searched; `below_min_score`: hits, all under `minScore`; `filtered_out`:
 * the query matches chunks, but `extensions`/`filters` removed every one.
 */
export type CodeSearchStatus =
  'ok' | 'no_match' | 'empty_index' | 'below_min_score' | 'filtered_out';

/** Changed files since the index, from a cheap stat check (never reads content). */
export interface FreshnessCounts {
  /** Work-tree files whose size or mtime differs from the index. */
  changed: number;
  /** Indexed files gone from disk. */
  missing: number;
  /** Files stat'ed. */
  checked: number;
  /** Files the index holds for the work tree (checked < total when the budget ran out). */
  total?: number;
  complete?: boolean;
}

/** One searched collection: how old and how complete its index is. */
export interface CollectionIndexState {
  collection: string;
  state: 'empty' | 'indexing' | 'ready' | 'failed';
  chunks: number;
  /** When the index was last brought up to date (epoch ms), null if never. */
  indexedAt: number | null;
  ageMs: number | null;
  /** A live index job, or chunks the postings do not hold yet. */
  building: boolean;
  job: { id: string; phase: string; filesSeen: number; filesTotal: number } | null;
  /** Chunks written but not yet searchable by full text (the postings backlog). */
  pendingText: number;
  /** Chunk vectors from the current model, and chunks still waiting for one. */
  vectors: { model: string; embedded: number; pending: number } | null;
  /** null when not checked (never indexed, no work-tree files, or over the collection cap). */
  freshness: FreshnessCounts | null;
}

export interface CodeSearchResult {
  status: CodeSearchStatus;
  /** What happened, in sentences: the status, building, degraded, truncation. */
  message: string;
  query: string;
  /** `hybrid` when vectors took part, else `fts`. */
  mode: 'hybrid' | 'fts';
  scoreBasis: ScoreBasis;
  /** True when vectors were expected but could not take part (`degradedReason` says why). */
  degraded: boolean;
  degradedReason: string | null;
  results: CodeSearchHit[];
  /** Candidates ranked (before `minScore` and `limit`), and how many held a query term. */
  candidates: number;
  textMatches: number;
  minScore: number;
  droppedBelowMinScore: number;
  /** The best score among the candidates, null when there were none. */
  bestScore: number | null;
  /** Some searched collection is still being indexed: the answer covers what is searchable. */
  building: boolean;
  index: CollectionIndexState[];
  /** Searched collections not listed in `index` (over the cap). */
  indexOmitted: number;
  /** Results left out to stay within the byte budget (or `limit`), with how to narrow. */
  truncated: boolean;
  omitted: number;
  hint: string | null;
  /** The code_searches row of this search, null when it could not be written (busy store). */
  searchId: number | null;
}

/** The texts embedded for a chunk and for a query (same vector space). */
export interface CodeEmbedText {
  /**
   * Names what `chunk` returns: chunk vectors are stored under the model and this version
   * (chunkVectorModel), so a new version re-embeds every chunk instead of mixing old vectors in.
   */
  readonly version: string;
  chunk(chunk: {
    symbol: string | null;
    signature: string | null;
    text: string;
    language: string | null;
  }): string;
  query(query: string): string;
}

/** What code search needs from an embedding provider. */
export type CodeEmbedder = Pick<Embedder, 'model' | 'isReady' | 'warm' | 'embed'>;

export interface CodeSearchOptions {
  /** null: full text only (CAIRN_EMBEDDINGS=none); results say so (`degraded`). */
  embedder: CodeEmbedder | null;
  /**
   * Fusion of full text and vectors, over CODE_FUSION (src/search: z-scored BM25 and cosine,
   * 0.8 / 0.2, 50 candidates per channel, as measured on CoSQA).
   */
  fusion?: FusionOptions;
  /** The stat check per collection name (default: statFreshness over code_files). */
  freshness?: (collection: string) => Promise<FreshnessCounts>;
  /** How long a freshness answer is reused (default 5,000 ms). */
  freshnessTtlMs?: number;
  /** What a query is embedded as, and the chunk text version searched (default DEFAULT_CODE_EMBED_TEXT). */
  embedText?: CodeEmbedText;
  /** JSON bytes of the whole answer at most (default 48 KiB). */
  maxBytes?: number;
  /**
   * Called when a search sees chunks without a vector from the embedder's model: wire it to
   * the chunk embedding backlog's `rescan()` (it may be idle with chunks below its cursor).
   */
  onVectorsPending?: () => void;
  clock?: () => number;
}

export const CODE_SEARCH_DEFAULTS = Object.freeze({
  limit: 10,
  maxLimit: 100,
  maxBytes: 48 * 1024,
  maxQueryChars: 4096,
  maxFilters: 32,
  maxFilterChars: 512,
  maxExtensions: 64,
  freshnessTtlMs: 5_000,
  /** Collections whose index state is listed (and freshness checked) at most. */
  maxIndexListed: 8,
  /** A running job whose heartbeat is older than this is not counted as building. */
  staleJobMs: 30_000,
});
