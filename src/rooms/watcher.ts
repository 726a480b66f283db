// Wakes long-polling readers when a room gains a post: at once for a post whose signal reaches
// this process (its own posts; on PostgreSQL every replica's), and within one poll interval for
// the rest (other processes on a SQLite file; a missed notification). Subscribing and polling
// run only while someone waits, and every wait is bounded by its own timeout.

export interface RoomWatcherOptions {
  /** The highest sequence number committed in a room (0 when empty). */
  maxSeq(roomId: string): Promise<number>;
  /** How often to look for other processes' posts while someone waits. Default 25 ms. */
  intervalMs?: number;
  /**
   * Listens for posts (the store's room signals) while someone waits: `{ roomId, seq }` per
   * post, `null` when some may have been missed (every waited room is then re-read).
   */
  subscribe?(listener: (post: { roomId: string; seq: number } | null) => void): () => void;
  onError?(err: unknown): void;
}

interface Waiter {
  roomId: string;
  after: number;
  done(changed: boolean): void;
}

export interface RoomWatcher {
  /** Resolves true once the room holds a post with seq > `after`; false on timeout or abort. */
  wait(roomId: string, after: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Releases waiters of `roomId` after `seq` (a post this process knows committed). */
  notify(roomId: string, seq: number): void;
  /** Releases every waiter (false) and stops polling. */
  close(): void;
}

/** Creates the watcher for one store. */
export function createRoomWatcher(options: RoomWatcherOptions): RoomWatcher {
  const intervalMs = options.intervalMs ?? 25;
  const waiters = new Set<Waiter>();
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let closed = false;

  function release(roomId: string, seq: number): void {
    for (const w of waiters) if (w.roomId === roomId && seq > w.after) w.done(true);
  }

  async function tick(): Promise<void> {
    timer = undefined;
    const rooms = new Set([...waiters].map((w) => w.roomId));
    for (const roomId of rooms) {
      try {
        release(roomId, await options.maxSeq(roomId));
      } catch (err) {
        options.onError?.(err);
      }
    }
    schedule();
  }

  function schedule(): void {
    if (timer !== undefined || closed || waiters.size === 0) return;
    timer = setTimeout(() => void tick(), intervalMs);
  }

  /** Listens while someone waits (subscribed on the first waiter, dropped after the last). */
  function listen(): void {
    if (waiters.size > 0 && !closed) {
      unsubscribe ??= options.subscribe?.((post) => {
        if (post !== null) return release(post.roomId, post.seq);
        if (timer !== undefined) clearTimeout(timer);
        void tick();
      });
    } else {
      unsubscribe?.();
      unsubscribe = undefined;
    }
  }

  async function wait(
    roomId: string,
    after: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const stopped = (): boolean => closed || signal?.aborted === true;
    if (stopped() || timeoutMs <= 0) return false;
    if ((await options.maxSeq(roomId)) > after) return true;
    if (stopped()) return false;
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => waiter.done(false);
      const waiter: Waiter = {
        roomId,
        after,
        done: (changed) => {
          if (!waiters.delete(waiter)) return;
          listen();
          clearTimeout(deadline);
          signal?.removeEventListener('abort', onAbort);
          resolve(changed);
        },
      };
      const deadline = setTimeout(() => waiter.done(false), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.add(waiter);
      listen();
      schedule();
      // A post that committed after the first look but before the subscription took effect.
      if (options.subscribe !== undefined) {
        options.maxSeq(roomId).then(
          (seq) => release(roomId, seq),
          (err: unknown) => options.onError?.(err),
        );
      }
    });
  }

  return {
    wait,
    notify: release,
    close() {
      closed = true;
      listen();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      for (const w of [...waiters]) w.done(false);
    },
  };
}
