// Memory's background embedder: the shared backlog loop (src/embed/backlog.ts) over live items
// without a vector from the current model. A save only wakes it. Switching models re-embeds
// everything in the background (old vectors are never compared with new ones).
import {
  createEmbedBacklog,
  type EmbedBacklog,
  type EmbedBacklogSource,
  type RunOnce,
} from '../embed/index.js';
import type { Store } from '../store/index.js';
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

const PENDING_SQL = `FROM memory_items m LEFT JOIN memory_vectors mv ON mv.item_rowid = m.rowid
  WHERE m.deleted_at IS NULL AND (mv.item_rowid IS NULL OR mv.model <> ?)`;

/** Live memory items as a backlog: the title and content of each, by rowid. */
function memorySource(store: Store): EmbedBacklogSource {
  return {
    async top() {
      const max = await store.get<{ top: number | null }>(
        'SELECT MAX(rowid) AS top FROM memory_items',
      );
      return max?.top ?? 0;
    },
    async next(model, after, limit) {
      const rows = await store.all<{ rowid: number; title: string; content: string }>(
        `SELECT m.rowid AS rowid, m.title AS title, m.content AS content ${PENDING_SQL}
           AND m.rowid > ? ORDER BY m.rowid LIMIT ?`,
        [model, after, limit],
      );
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
    async pending(model) {
      const row = await store.get<{ n: number }>(`SELECT COUNT(*) AS n ${PENDING_SQL}`, [model]);
      return row?.n ?? 0;
    },
  };
}

/** Creates (but does not start) the background embedding worker. Call wake() to start. */
export function createEmbedWorker(options: EmbedWorkerOptions): EmbedWorker {
  const { store, ...rest } = options;
  return createEmbedBacklog({ ...rest, source: memorySource(store) });
}
