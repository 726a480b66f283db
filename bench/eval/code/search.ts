// The code eval's search channels over the stored chunks: full text and nearest vectors.
// `openCodeSearch` answers through the product (store.codeIndex: the code corpus's postings
// and the sqlite-vec chunk vectors), so the headline modes measure what search_code ranks
// with. `inMemorySearch` (bm25.ts, brute-force cosine) is the attempts ladder's: it rebuilds
// cheaply for every variant a sweep tries.
import { chunkVectorModel } from '../../../src/code/index.js';
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
import { cosines, dot } from './vectors.js';

/** The two channels a code search fuses. Hit ids are chunk ids, best first. */
export interface CodeSearch {
  /** Where the channels come from (`store.codeIndex`, or the eval's in-memory index). */
  readonly engine: string;
  /** Scores are raw BM25. */
  fullText(query: string, limit: number): Promise<Hit[]>;
  /** Scores are cosine similarities. */
  nearest(vector: Float32Array, limit: number): Promise<Hit[]>;
  /** Cosine similarity to `vector` of each listed chunk (those without a vector left out). */
  cosines(vector: Float32Array, ids: readonly number[]): Promise<Hit[]>;
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
  const need = (): readonly Float32Array[] => {
    if (vectors === null) throw new Error('this code search has no vectors');
    return vectors;
  };
  return {
    engine: 'eval in-memory BM25 and brute-force cosine (bench/eval/code/search.ts)',
    fullText: async (query, limit) => index.search(query, limit),
    nearest: async (vector, limit) => nearestOf(ids, need(), vector, limit),
    cosines: async (vector, wanted) => {
      const all = need();
      const at = new Map(ids.map((id, i) => [id, i]));
      return wanted.flatMap((id) => {
        const v = all[at.get(id) ?? -1];
        return v === undefined ? [] : [{ id, score: dot(vector, v) }];
      });
    },
  };
}

/** Vectors stored per write transaction when the eval loads the chunk vectors. */
const PUT_BATCH = 512;

/**
 * The search the headline modes go through: the product's store.codeIndex over the stored
 * collection. Its code postings were built by storeCorpus's write (the measured fields and
 * weights, CODE_BM25); the chunk vectors (parallel to `corpus.chunks`, or null for full text
 * only) are stored once through putVectors under the product's key for `model`
 * (chunkVectorModel: the model plus the embedding text's version), as the chunk embedding
 * backlog stores them.
 */
export async function openCodeSearch(
  store: Store,
  corpus: StoredCorpus,
  vectors: readonly Float32Array[] | null,
  model: string,
): Promise<CodeSearch> {
  const filter = { collectionIds: [corpus.collectionId] };
  const pending = await store.codeIndex.pending(filter.collectionIds);
  if (pending > 0) throw new Error(`${pending} chunks are not in the code postings yet`);
  const key = chunkVectorModel(model);
  if (vectors !== null) {
    for (let i = 0; i < corpus.chunks.length; i += PUT_BATCH) {
      const rows = corpus.chunks.slice(i, i + PUT_BATCH).map((c, j) => {
        const vector = vectors[i + j];
        if (vector === undefined) throw new Error(`chunk ${c.id} has no vector`);
        return { chunkId: c.id, vector };
      });
      await store.write((tx) => store.codeIndex.putVectors(tx, key, rows));
    }
  }
  const cosine = (h: { chunkId: number; distance: number }): Hit => ({
    id: h.chunkId,
    score: 1 - h.distance,
  });
  return {
    engine: 'store.codeIndex (the code corpus postings and sqlite-vec chunk vectors)',
    fullText: async (query, limit) =>
      (await store.codeIndex.fullText(query, filter, limit)).map((h) => ({
        id: h.chunkId,
        score: h.bm25,
      })),
    nearest: async (vector, limit) =>
      (await store.codeIndex.nearest(key, vector, filter, limit)).map(cosine),
    cosines: async (vector, ids) => (await store.codeIndex.distances(key, vector, ids)).map(cosine),
  };
}
