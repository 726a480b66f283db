// The code eval's search channels over the stored chunks: full text and nearest vectors.
// `openCodeSearch` is the one function to replace when the store's code corpus
// (`store.codeIndex`) lands: its full text and vector search then answer instead of the eval's
// in-memory BM25 (bm25.ts) and brute-force cosine. Everything else in the eval stays.
import {
  CODE_BM25,
  CODE_FIELD_WEIGHTS,
  codeProse,
  codeTokenizer,
  type Tokenizer,
} from '../../../src/search/index.js';
import type { Store } from '../../../src/store/index.js';
import {
  analyseCorpus,
  type AnalysedCorpus,
  type Bm25Params,
  buildIndex,
  type FieldWeights,
  type Hit,
  type RankedDoc,
} from './bm25.js';
import type { ChunkRow, StoredCorpus } from './corpus.js';
import { cosines } from './vectors.js';

/** The two channels a code search fuses. Hit ids are chunk ids, best first. */
export interface CodeSearch {
  /** Where the channels come from (`eval in-memory`, or `store.codeIndex` after the merge). */
  readonly engine: string;
  fullText(query: string, limit: number): Promise<Hit[]>;
  nearest(vector: Float32Array, limit: number): Promise<Hit[]>;
}

/** A chunk's fields as the product's code corpus indexes them. */
export function rankedDoc(chunk: ChunkRow): RankedDoc {
  return {
    id: chunk.id,
    fields: {
      symbol: chunk.symbol ?? '',
      signature: chunk.signature ?? '',
      prose: codeProse(chunk.text, 'python'),
      text: chunk.text,
      path: chunk.path,
    },
  };
}

/** The stored chunks tokenized once (for the sweep, which rebuilds indexes cheaply). */
export const analyseChunks = (
  chunks: readonly ChunkRow[],
  tokenizer: Tokenizer = codeTokenizer,
): AnalysedCorpus => analyseCorpus(chunks.map(rankedDoc), tokenizer);

/** Brute-force nearest chunks to `vector` among `vectors` (parallel to `ids`). */
export function nearestOf(
  ids: readonly number[],
  vectors: readonly Float32Array[],
  vector: Float32Array,
  limit: number,
): Hit[] {
  const scores = cosines(vector, vectors);
  const order = ids.map((id, i) => ({ id, score: scores[i] ?? 0 }));
  order.sort((a, b) => b.score - a.score || a.id - b.id);
  return order.slice(0, limit);
}

export interface SearchSettings {
  weights?: FieldWeights;
  bm25?: Bm25Params;
  analysed?: AnalysedCorpus;
}

/**
 * The eval's in-memory channels over `corpus` (chunk vectors parallel to `corpus.chunks`, or
 * null for full text only), ranked with the product's settings (CODE_FIELD_WEIGHTS, CODE_BM25)
 * unless `settings` says otherwise. The sweep uses it for every variant it tries.
 */
export function inMemorySearch(
  corpus: StoredCorpus,
  vectors: readonly Float32Array[] | null,
  settings: SearchSettings = {},
): CodeSearch {
  const analysed = settings.analysed ?? analyseChunks(corpus.chunks);
  const index = buildIndex(analysed, settings.weights ?? CODE_FIELD_WEIGHTS, {
    ...CODE_BM25,
    ...settings.bm25,
  });
  const ids = corpus.chunks.map((c) => c.id);
  return {
    engine: 'eval in-memory BM25 and brute-force cosine (bench/eval/code/search.ts)',
    fullText: async (query, limit) => index.search(query, limit),
    nearest: async (vector, limit) => {
      if (vectors === null) throw new Error('this code search has no vectors');
      return nearestOf(ids, vectors, vector, limit);
    },
  };
}

/**
 * The search the headline modes go through: the product's ranking over the stored chunks.
 * Today the eval's in-memory channels with the product's settings.
 *
 * After the merge this is the one function to replace: `store.codeIndex.putVectors(…)` the
 * chunk vectors once, then answer `fullText` with `store.codeIndex.fullText(query,
 * { collectionIds: [corpus.collectionId] }, limit)` and `nearest` with
 * `store.codeIndex.nearest(…)`, mapping their rows to `{ id: chunkId, score }`.
 */
export async function openCodeSearch(
  _store: Store,
  corpus: StoredCorpus,
  vectors: readonly Float32Array[] | null,
): Promise<CodeSearch> {
  return inMemorySearch(corpus, vectors);
}
