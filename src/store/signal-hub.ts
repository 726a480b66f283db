// In-process delivery of store signals: the subscribers of each topic, and (for SQLite) the
// signals a write transaction sent, held until it commits. Both backends deliver through a hub;
// PostgreSQL feeds its hub from the LISTEN connection. Also the in-process run-once locks.
import type { LockHold, LockRun, Locks, Queryable, SignalListener, Signals } from './types.js';

/**
 * How often a waiter whose wake-ups reach every process (PostgreSQL) still re-reads the store:
 * only to cover a missed notification, so much slower than the file polls of SQLite waiters.
 */
export const SIGNAL_SAFETY_POLL_MS = 1500;

export interface SignalHub {
  subscribe(topic: string, listener: SignalListener): () => void;
  /** Calls every subscriber of `topic` with `payload` (a throwing listener is skipped). */
  deliver(topic: string, payload: string | null): void;
  /** Calls every subscriber of every topic with `null` (notifications may have been missed). */
  wakeAll(): void;
  /** Subscribers across topics. */
  size(): number;
}

function call(listener: SignalListener, payload: string | null): void {
  try {
    listener(payload);
  } catch {
    // A listener's fault is its own: the other subscribers still hear the signal.
  }
}

export function createSignalHub(): SignalHub {
  const topics = new Map<string, Set<SignalListener>>();
  return {
    subscribe(topic, listener) {
      // Wrapped, so one function subscribed twice is two subscriptions.
      const entry: SignalListener = (payload) => listener(payload);
      let set = topics.get(topic);
      if (set === undefined) topics.set(topic, (set = new Set()));
      set.add(entry);
      return () => {
        set.delete(entry);
        if (set.size === 0 && topics.get(topic) === set) topics.delete(topic);
      };
    },
    deliver(topic, payload) {
      for (const listener of [...(topics.get(topic) ?? [])]) call(listener, payload);
    },
    wakeAll() {
      for (const set of [...topics.values()]) for (const l of [...set]) call(l, null);
    },
    size: () => [...topics.values()].reduce((n, set) => n + set.size, 0),
  };
}

/** In-process signals over one connection (SQLite), with the hooks its transactions call. */
export interface LocalSignals {
  readonly signals: Signals;
  /** The transaction committed: deliver what it sent. */
  committed(): void;
  /** The transaction rolled back (or will be retried): forget what it sent. */
  rolledBack(): void;
}

/**
 * Signals for a store with one connection: a signal sent while `inTransaction()` waits for the
 * commit; one sent outside a transaction is delivered at once.
 */
export function createLocalSignals(inTransaction: () => boolean): LocalSignals {
  const hub = createSignalHub();
  let pending: [string, string][] = [];
  return {
    signals: {
      reach: 'process',
      notify(_tx: Queryable, topic: string, payload: string): Promise<void> {
        if (inTransaction()) pending.push([topic, payload]);
        else hub.deliver(topic, payload);
        return Promise.resolve();
      },
      subscribe: (topic, listener) => hub.subscribe(topic, listener),
    },
    committed() {
      const sent = pending;
      pending = [];
      for (const [topic, payload] of sent) hub.deliver(topic, payload);
    },
    rolledBack() {
      pending = [];
    },
  };
}

/**
 * Locks held by this process only: `tryRun` skips `fn` while another run of the same name is
 * going here, `tryHold` keeps a name until released. The PostgreSQL locks put an advisory lock
 * across processes on top of this.
 */
export function createLocalLocks(): Locks & { held(name: string): boolean } {
  const held = new Set<string>();
  const tryHold = (name: string): LockHold | null => {
    if (held.has(name)) return null;
    held.add(name);
    let released = false;
    return {
      release() {
        if (!released) held.delete(name);
        released = true;
        return Promise.resolve();
      },
    };
  };
  return {
    reach: 'process',
    held: (name) => held.has(name),
    tryHold: (name) => Promise.resolve(tryHold(name)),
    isHeld: (name) => Promise.resolve(held.has(name)),
    async tryRun<T>(name: string, fn: () => Promise<T>): Promise<LockRun<T>> {
      const hold = tryHold(name);
      if (hold === null) return { ran: false };
      try {
        return { ran: true, value: await fn() };
      } finally {
        await hold.release();
      }
    },
  };
}
