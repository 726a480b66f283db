// The background embedder: finds live items without a vector from the current model, embeds
// them in small batches and stores the vectors. Runs beside the request path: a save only
// wakes it, and it yields between batches so tool calls interleave. Switching models re-embeds
// everything in the background (old vectors are never compared with new ones).
import type { Store } from '../store/index.js';
import type { MemoryEmbedder } from './model.js';

export interface EmbedWorkerOptions {
  store: Store;
  embedder: MemoryEmbedder;
  /** Items per embedding call (default 16: short blocking slices for an in-process model). */
  batchSize?: number;
  /** Longest text sent to the embedder, in characters. */
  maxChars?: number;
  onError?: (err: unknown) => void;
  onBatch?: (embedded: number) => void;
}

export interface EmbedWorker {
  /** Schedules a pass (cheap; coalesces). */
  wake(): void;
  /** Embeds until nothing is pending; resolves with how many items were embedded. */
  drain(): Promise<number>;
  /** Items still waiting for a vector from the current model. */
  pending(): Promise<number>;
  stop(): Promise<void>;
}

const PENDING_SQL = `FROM memory_items m LEFT JOIN memory_vectors mv ON mv.item_rowid = m.rowid
  WHERE m.deleted_at IS NULL AND (mv.item_rowid IS NULL OR mv.model <> ?)`;

const yieldToIo = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Creates (but does not start) the background embedding worker. Call wake() to start. */
export function createEmbedWorker(options: EmbedWorkerOptions): EmbedWorker {
  const { store, embedder } = options;
  const batchSize = options.batchSize ?? 16;
  const maxChars = options.maxChars ?? 2000;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;

  async function batch(): Promise<number> {
    const rows = await store.all<{ rowid: number; title: string; content: string }>(
      `SELECT m.rowid AS rowid, m.title AS title, m.content AS content ${PENDING_SQL} ORDER BY m.rowid LIMIT ?`,
      [embedder.model, batchSize],
    );
    if (rows.length === 0) return 0;
    const texts = rows.map((r) =>
      (r.title === '' ? r.content : `${r.title}\n${r.content}`).slice(0, maxChars),
    );
    const vectors = await embedder.embed(texts);
    await store.write((tx) =>
      store.memoryIndex.putVectors(
        tx,
        embedder.model,
        rows.flatMap((r, i) => {
          const vector = vectors[i];
          return vector === undefined ? [] : [{ rowid: r.rowid, vector }];
        }),
      ),
    );
    options.onBatch?.(rows.length);
    return rows.length;
  }

  async function loop(): Promise<number> {
    let total = 0;
    do {
      again = false;
      for (;;) {
        if (stopped) return total;
        const n = await batch();
        total += n;
        if (n === 0) break;
        await yieldToIo();
      }
    } while (again && !stopped);
    return total;
  }

  function run(): Promise<number> {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = loop()
      .catch((err: unknown) => {
        options.onError?.(err);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    wake: () => {
      if (!stopped) void run();
    },
    async drain() {
      let total = 0;
      while (!stopped && (await this.pending()) > 0) total += await run();
      return total;
    },
    async pending() {
      const row = await store.get<{ n: number }>(`SELECT COUNT(*) AS n ${PENDING_SQL}`, [
        embedder.model,
      ]);
      return row?.n ?? 0;
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
