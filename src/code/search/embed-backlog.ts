// The chunk embedding backlog: code chunks without a vector from the current model and embedding
// text (chunkVectorModel: both name the key vectors are stored under), embedded in the
// background by the shared backlog loop (src/embed/backlog.ts), off the request path, in
// bounded batches. An index job only has to wake it; a search wakes it when it sees chunks
// without vectors. Portable SQL; the vectors go through store.codeIndex.putVectors.
import {
  type BacklogEmbedder,
  createEmbedBacklog,
  type EmbedBacklog,
  type EmbedBacklogSource,
  type RunOnce,
} from '../../embed/index.js';
import { inChunks, inList, type SqlValue, type Store } from '../../store/index.js';
import { chunkVectorModel, DEFAULT_CODE_EMBED_TEXT } from './embed-text.js';
import type { CodeEmbedText } from './types.js';

export interface CodeEmbedWorkerOptions {
  store: Store;
  embedder: BacklogEmbedder;
  /** What a chunk is embedded as (default DEFAULT_CODE_EMBED_TEXT). */
  embedText?: CodeEmbedText;
  /** Chunks per embedding call (default 16). */
  batchSize?: number;
  /** Rest after each batch, as a multiple of its time (default 0; see createEmbedBacklog). */
  restRatio?: number;
  onError?: (err: unknown) => void;
  onBatch?: (embedded: number) => void;
  /** The corpus's run-once lock (see createEmbedBacklog): one process embeds at a time. */
  runOnce?: RunOnce;
}

const WAITING = `FROM code_chunks c LEFT JOIN code_vectors v ON v.chunk_id = c.id
  WHERE (v.chunk_id IS NULL OR v.model <> ?)`;

/** Chunks without a vector stored under `key`, in the listed collections (all when absent). */
async function waiting(
  store: Store,
  key: string,
  collectionIds: readonly number[] | undefined,
): Promise<number> {
  const count = async (sql: string, params: readonly SqlValue[]) =>
    (await store.get<{ n: number }>(`SELECT COUNT(*) AS n ${WAITING}${sql}`, params))?.n ?? 0;
  if (collectionIds === undefined) return count('', [key]);
  let n = 0;
  for (const part of inChunks(collectionIds)) {
    n += await count(` AND c.collection_id IN ${inList(part.length)}`, [key, ...part]);
  }
  return n;
}

/**
 * Chunks waiting for a vector from the embedder `model` and `embedText` (default
 * DEFAULT_CODE_EMBED_TEXT), in the listed collections (all when absent): what index_status
 * reports as the embedding backlog.
 */
export const pendingChunkVectors = (
  store: Store,
  model: string,
  collectionIds?: readonly number[],
  embedText: CodeEmbedText = DEFAULT_CODE_EMBED_TEXT,
): Promise<number> => waiting(store, chunkVectorModel(model, embedText), collectionIds);

function chunkSource(store: Store, embedText: CodeEmbedText): EmbedBacklogSource {
  return {
    async top() {
      const row = await store.get<{ top: number | null }>('SELECT MAX(id) AS top FROM code_chunks');
      return row?.top ?? 0;
    },
    async next(model, after, limit) {
      const rows = await store.all<{
        id: number;
        symbol: string | null;
        signature: string | null;
        text: string;
        language: string | null;
      }>(
        `SELECT c.id, c.symbol, c.signature, c.text, f.language
         FROM code_chunks c JOIN code_files f ON f.id = c.file_id
           LEFT JOIN code_vectors v ON v.chunk_id = c.id
         WHERE c.id > ? AND (v.chunk_id IS NULL OR v.model <> ?) ORDER BY c.id LIMIT ?`,
        [after, model, limit],
      );
      return rows.map((r) => ({ id: r.id, text: embedText.chunk(r) }));
    },
    put: (model, rows) =>
      store.write((tx) =>
        store.codeIndex.putVectors(
          tx,
          model,
          rows.map((r) => ({ chunkId: r.id, vector: r.vector })),
        ),
      ),
    pending: (key) => waiting(store, key, undefined),
  };
}

/**
 * Creates (but does not start) the chunk embedding backlog. Call wake() to start. Vectors are
 * stored under chunkVectorModel(embedder.model, embedText).
 */
export function createCodeEmbedWorker(options: CodeEmbedWorkerOptions): EmbedBacklog {
  const { store, embedder, embedText = DEFAULT_CODE_EMBED_TEXT, ...rest } = options;
  return createEmbedBacklog({
    ...rest,
    embedder: {
      model: chunkVectorModel(embedder.model, embedText),
      embed: (texts, call) => embedder.embed(texts, call),
    },
    source: chunkSource(store, embedText),
  });
}

/** How far the chunk embeddings of one collection are: what index_status shows. */
export interface ChunkEmbeddings {
  /** The key the vectors are stored under: the embedder's model and the text version. */
  model: string;
  chunks: number;
  embedded: number;
  /** Chunks waiting for a vector from `model` (the background backlog embeds them). */
  pending: number;
}

/**
 * The chunk embeddings of the collection named `collection` (zeros when there is none) by the
 * embedder `model` and `embedText` (default DEFAULT_CODE_EMBED_TEXT).
 */
export async function chunkEmbeddings(
  store: Store,
  model: string,
  collection: string,
  embedText: CodeEmbedText = DEFAULT_CODE_EMBED_TEXT,
): Promise<ChunkEmbeddings> {
  const key = chunkVectorModel(model, embedText);
  const row = await store.get<{ chunks: number; embedded: number }>(
    `SELECT COUNT(c.id) AS chunks, COUNT(v.chunk_id) AS embedded
     FROM code_collections k JOIN code_chunks c ON c.collection_id = k.id
       LEFT JOIN code_vectors v ON v.chunk_id = c.id AND v.model = ?
     WHERE k.name = ?`,
    [key, collection],
  );
  const chunks = row?.chunks ?? 0;
  const embedded = row?.embedded ?? 0;
  return { model: key, chunks, embedded, pending: chunks - embedded };
}
