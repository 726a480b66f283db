// Wakes long-polling readers when a room gains a post: at once for posts made through this
// process, and within one poll interval for posts another process committed to the same file.
// Polling runs only while someone waits, and every wait is bounded by its own timeout.

export interface RoomWatcherOptions {
  /** The highest sequence number committed in a room (0 when empty). */
  maxSeq(roomId: string): Promise<number>;
  /** How often to look for other processes' posts while someone waits. Default 25 ms. */
  intervalMs?: number;
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
  /** Called after a post commits in this process. */
  notify(roomId: string, seq: number): void;
  /** Releases every waiter (false) and stops polling. */
  close(): void;
}

/** Creates the watcher for one store. */
export function createRoomWatcher(options: RoomWatcherOptions): RoomWatcher {
  const intervalMs = options.intervalMs ?? 25;
  const waiters = new Set<Waiter>();
  let timer: NodeJS.Timeout | undefined;
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
          clearTimeout(deadline);
          signal?.removeEventListener('abort', onAbort);
          resolve(changed);
        },
      };
      const deadline = setTimeout(() => waiter.done(false), timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.add(waiter);
      schedule();
    });
  }

  return {
    wait,
    notify: release,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      for (const w of [...waiters]) w.done(false);
    },
  };
}
