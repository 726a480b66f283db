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
  /**
   * After each batch, rest this multiple of the batch's duration before the next (default 0).
   * 1 keeps an in-process model to about half a core, leaving the rest to tool calls.
   */
  restRatio?: number;
  onError?: (err: unknown) => void;
  onBatch?: (embedded: number) => void;
}

/** The longest rest between batches, whatever the ratio. */
const MAX_REST_MS = 2_000;

export interface EmbedWorker {
  /** Schedules a pass (cheap; coalesces). */
  wake(): void;
  /**
   * Embeds until nothing is pending; resolves with how many items were embedded.
   * @throws the embedder's error when a pass fails (it is also passed to `onError`).
   */
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
  /** The error that ended the latest pass, if it failed. */
  let failure: unknown;
  /** Ends a rest early (stop, drain). */
  let wakeRest: (() => void) | undefined;
  /** drain() calls in progress: someone waits for the backlog, so no rests. */
  let draining = 0;

  /**
   * Every live item with a rowid up to this had a vector from this model when this worker last
   * looked, so a pass starts after it: rescanning the table from the start cost 45 ms of main
   * thread per wake (every save) at 100k items. Rowids only grow; only this worker moves it.
   */
  let doneThrough = 0;

  /** Yields to I/O, then rests `restRatio` × the batch's time (stop() cuts it short). */
  async function rest(batchMs: number): Promise<void> {
    await yieldToIo();
    const ms = Math.min(MAX_REST_MS, batchMs * (options.restRatio ?? 0));
    if (ms < 1 || stopped || draining > 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wakeRest = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wakeRest = undefined;
  }

  /** Embeds the next pending items after `cursor`; `top` is the largest rowid before the scan. */
  async function batch(
    cursor: number,
  ): Promise<{ n: number; last: number; top: number; missed: boolean }> {
    const max = await store.get<{ top: number | null }>(
      'SELECT MAX(rowid) AS top FROM memory_items',
    );
    const top = max?.top ?? 0;
    const rows = await store.all<{ rowid: number; title: string; content: string }>(
      `SELECT m.rowid AS rowid, m.title AS title, m.content AS content ${PENDING_SQL}
         AND m.rowid > ? ORDER BY m.rowid LIMIT ?`,
      [embedder.model, cursor, batchSize],
    );
    const last = rows.at(-1)?.rowid;
    if (last === undefined) return { n: 0, last: cursor, top, missed: false };
    const texts = rows.map((r) =>
      (r.title === '' ? r.content : `${r.title}\n${r.content}`).slice(0, maxChars),
    );
    const vectors = await embedder.embed(texts);
    const stored = rows.flatMap((r, i) => {
      const vector = vectors[i];
      return vector === undefined ? [] : [{ rowid: r.rowid, vector }];
    });
    await store.write((tx) => store.memoryIndex.putVectors(tx, embedder.model, stored));
    options.onBatch?.(rows.length);
    return { n: rows.length, last, top, missed: stored.length < rows.length };
  }

  /** One pass from `doneThrough`; moves it to the scan's top when nothing was left behind. */
  async function pass(): Promise<number> {
    let total = 0;
    let cursor = doneThrough;
    let clean = true;
    for (;;) {
      if (stopped) return total;
      const started = performance.now();
      const b = await batch(cursor);
      if (b.n === 0) {
        if (clean) doneThrough = Math.max(doneThrough, b.top);
        return total;
      }
      total += b.n;
      cursor = b.last;
      clean &&= !b.missed;
      await rest(performance.now() - started);
    }
  }

  async function loop(): Promise<number> {
    let total = 0;
    do {
      again = false;
      total += await pass();
    } while (again && !stopped);
    return total;
  }

  function run(): Promise<number> {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = loop()
      .then(
        (n) => {
          failure = undefined;
          return n;
        },
        (err: unknown) => {
          failure = err ?? new Error('embedding failed');
          options.onError?.(err);
          return 0;
        },
      )
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
      // pending() counts from the start, so the passes must too: another process may have
      // replaced vectors below the mark with another model's, and drain would then spin.
      doneThrough = 0;
      draining += 1;
      wakeRest?.();
      try {
        while (!stopped && (await this.pending()) > 0) {
          total += await run();
          // A failed pass would fail again at once: surface it rather than spin.
          if (failure !== undefined) throw failure;
        }
      } finally {
        draining -= 1;
      }
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
      wakeRest?.();
      await running;
    },
  };
}
