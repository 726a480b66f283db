// The background embedding loop shared by every corpus (memory items, code chunks): finds items
// without a vector from the current model through a source, embeds them in small batches and
// stores the vectors. Runs beside the request path: writers only wake it, and it yields between
// batches so tool calls interleave; its calls are `background`, so a query embedding goes first.
// Knows no table: the source does the SQL. With `runOnce`, a pass runs in one process at a time
// across every process on the store (PostgreSQL replicas), the others skip it.
import { passLoop } from '../shared/index.js';
import type { LockRun } from '../store/index.js';
import type { EmbedCallOptions } from './types.js';

const BACKGROUND: EmbedCallOptions = { priority: 'background' };

/** One item waiting for a vector: its id (ascending within a scan) and the text to embed. */
export interface BacklogItem {
  id: number;
  text: string;
}

/** Where a corpus's backlog lives. Every method runs outside any caller's transaction. */
export interface EmbedBacklogSource {
  /** The largest item id that exists now: a scan that reaches it has seen everything. */
  top(): Promise<number>;
  /** Up to `limit` items with an id above `after`, ascending, without a `model` vector. */
  next(model: string, after: number, limit: number): Promise<BacklogItem[]>;
  /** Stores the vectors (one write); items that vanished meanwhile are skipped. */
  put(model: string, rows: readonly { id: number; vector: Float32Array }[]): Promise<void>;
  /** Items still waiting for a `model` vector. */
  pending(model: string): Promise<number>;
}

/** What the loop needs from an embedder (src/embed's Embedder has it). */
export interface BacklogEmbedder {
  readonly model: string;
  /** Called with `{ priority: 'background' }`: queries go first. */
  embed(texts: readonly string[], options?: EmbedCallOptions): Promise<Float32Array[]>;
}

export interface EmbedBacklogOptions {
  source: EmbedBacklogSource;
  embedder: BacklogEmbedder;
  /** Items per embedding call (default 16: short blocking slices for an in-process model). */
  batchSize?: number;
  /** Longest text sent to the embedder, in characters (default 2,000). */
  maxChars?: number;
  /**
   * After each batch, rest this multiple of the batch's duration before the next (default 0).
   * 1 keeps an in-process model to about half a core, leaving the rest to tool calls.
   */
  restRatio?: number;
  onError?: (err: unknown) => void;
  onBatch?: (embedded: number) => void;
  /**
   * Runs a pass under the corpus's run-once lock (`store.locks.tryRun(name, fn)`); a pass it
   * skips (another process holds the lock) embeds nothing here. Default: every pass runs.
   */
  runOnce?: RunOnce;
}

/** Runs `fn` unless another holder has the lock (see Store.locks). */
export type RunOnce = <T>(fn: () => Promise<T>) => Promise<LockRun<T>>;

/** How long drain() waits before looking again while another process holds the pass. */
const HELD_ELSEWHERE_MS = 100;

export interface EmbedBacklog {
  /** Schedules a pass (cheap; coalesces). */
  wake(): void;
  /**
   * Schedules a pass from the first item, not from where the last one stopped: for items
   * changed in place below that point (a pass only looks above it). Coalesces like wake().
   */
  rescan(): void;
  /**
   * Embeds until nothing is pending; resolves with how many items were embedded.
   * @throws the embedder's error when a pass fails (it is also passed to `onError`).
   */
  drain(): Promise<number>;
  /** Items still waiting for a vector from the current model. */
  pending(): Promise<number>;
  stop(): Promise<void>;
}

/** The longest rest between batches, whatever the ratio. */
const MAX_REST_MS = 2_000;

const yieldToIo = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Creates (but does not start) a background embedding loop. Call wake() to start. */
export function createEmbedBacklog(options: EmbedBacklogOptions): EmbedBacklog {
  const { source, embedder } = options;
  const batchSize = options.batchSize ?? 16;
  const maxChars = options.maxChars ?? 2000;
  let stopped = false;
  /** Ends a rest early (stop, drain). */
  let wakeRest: (() => void) | undefined;
  /** drain() calls in progress: someone waits for the backlog, so no rests. */
  let draining = 0;

  /**
   * Every item with an id up to this had a vector from this model when this loop last looked,
   * so a pass starts after it: rescanning from the start cost 45 ms of main thread per wake
   * (every memory save) at 100k items. Ids only grow; only this loop moves it.
   */
  let doneThrough = 0;
  /** The next pass starts from the first item (rescan()). */
  let fromStart = false;

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

  /** Embeds the next pending items after `cursor`; `top` is the largest id before the scan. */
  async function batch(
    cursor: number,
  ): Promise<{ n: number; last: number; top: number; missed: boolean }> {
    const top = await source.top();
    const rows = await source.next(embedder.model, cursor, batchSize);
    const last = rows.at(-1)?.id;
    if (last === undefined) return { n: 0, last: cursor, top, missed: false };
    const vectors = await embedder.embed(
      rows.map((r) => r.text.slice(0, maxChars)),
      BACKGROUND,
    );
    const stored = rows.flatMap((r, i) => {
      const vector = vectors[i];
      return vector === undefined ? [] : [{ id: r.id, vector }];
    });
    await source.put(embedder.model, stored);
    options.onBatch?.(rows.length);
    return { n: rows.length, last, top, missed: stored.length < rows.length };
  }

  /** One pass from `doneThrough`; moves it to the scan's top when nothing was left behind. */
  async function pass(): Promise<number> {
    let total = 0;
    let cursor = fromStart ? 0 : doneThrough;
    fromStart = false;
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

  /** The last pass was skipped: another process holds the corpus's lock. */
  let skipped = false;
  const runOnce = options.runOnce;
  const lockedPass = async (): Promise<number> => {
    if (runOnce === undefined) return pass();
    const run = await runOnce(pass);
    skipped = !run.ran;
    return run.ran ? run.value : 0;
  };

  const loop = passLoop({
    pass: lockedPass,
    stopped: () => stopped,
    failed: 'embedding failed',
    onError: options.onError,
  });
  const run = (): Promise<number> => loop.run();

  return {
    wake: () => {
      if (!stopped) void run();
    },
    rescan: () => {
      fromStart = true;
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
          if (loop.failure() !== undefined) throw loop.failure();
          // Another process is embedding this backlog: look again shortly (bounded by it).
          if (skipped) await new Promise((r) => setTimeout(r, HELD_ELSEWHERE_MS));
        }
      } finally {
        draining -= 1;
      }
      return total;
    },
    pending: () => source.pending(embedder.model),
    async stop() {
      stopped = true;
      wakeRest?.();
      await loop.current();
    },
  };
}
