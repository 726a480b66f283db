// Memory's background embedder: the shared backlog loop (src/embed/backlog.ts) over live items
// without a vector from the current model. A save only wakes it. Switching models re-embeds
// everything in the background (old vectors are never compared with new ones).
import {
  createEmbedBacklog,
  type EmbedBacklog,
  type EmbedBacklogSource,
  type RunOnce,
} from '../embed/index.js';
import {
  memoryEmbedBacklog,
  memoryEmbedPending,
  newestMemoryRowid,
  type Store,
} from '../store/index.js';
import type { MemoryEmbedder } from './model.js';

export interface EmbedWorkerOptions {
  store: Store;
  embedder: MemoryEmbedder;
  /** Items per embedding call (default 16: short blocking slices for an in-process model). */
  batchSize?: number;
  /** Longest text sent to the embedder, in characters. */
  maxChars?: number;
  /**
   * After each batch, rest this multiple of the batch's duration before the next (default 0).
   * 1 keeps an in-process model to about half a core, leaving the rest to tool calls.
   */
  restRatio?: number;
  onError?: (err: unknown) => void;
  onBatch?: (embedded: number) => void;
  /** The corpus's run-once lock (see createEmbedBacklog): one process embeds at a time. */
  runOnce?: RunOnce;
}

/** The background embedder's controls: wake, drain, pending, stop. */
export type EmbedWorker = EmbedBacklog;

/** Live memory items as a backlog: the title and content of each, by rowid. */
function memorySource(store: Store): EmbedBacklogSource {
  return {
    top: () => newestMemoryRowid(store),
    async next(model, after, limit) {
      const rows = await memoryEmbedBacklog(store, model, after, limit);
      return rows.map((r) => ({
        id: r.rowid,
        text: r.title === '' ? r.content : `${r.title}\n${r.content}`,
      }));
    },
    put: (model, rows) =>
      store.write((tx) =>
        store.memoryIndex.putVectors(
          tx,
          model,
          rows.map((r) => ({ rowid: r.id, vector: r.vector })),
        ),
      ),
    pending: (model) => memoryEmbedPending(store, model),
  };
}

/** Creates (but does not start) the background embedding worker. Call wake() to start. */
export function createEmbedWorker(options: EmbedWorkerOptions): EmbedWorker {
  const { store, ...rest } = options;
  return createEmbedBacklog({ ...rest, source: memorySource(store) });
}
