// The board's wake-up: every board write transaction that commits sends the `board` store
// signal, so waiters (the board stream) re-read at once, on PostgreSQL in every replica. It
// carries no task data; a waiter re-reads the board, which stays the source of truth.
import type { Queryable, Store, WriteOptions } from '../store/index.js';

/** The store signal topic of board changes (tasks, claims, comments, dependencies). */
export const BOARD_TOPIC = 'board';

/** A board write: `store.write` that signals BOARD_TOPIC in the transaction it commits. */
export type BoardWrite = <T>(
  fn: (tx: Queryable) => Promise<T>,
  options?: WriteOptions,
) => Promise<T>;

/** Sends the board signal from inside the write transaction `tx` (delivered on commit). */
export function signalBoard(store: Store, tx: Queryable): Promise<void> {
  return store.signals.notify(tx, BOARD_TOPIC, 'changed');
}

/** Board writes over `store`: each one that commits wakes the board's waiters. */
export function boardWriter(store: Store): BoardWrite {
  return (fn, options) =>
    store.write(async (tx) => {
      const result = await fn(tx);
      await signalBoard(store, tx);
      return result;
    }, options);
}

/**
 * Calls `listener` after each committed board write (this process's, and on PostgreSQL every
 * replica's), and with no argument when some may have been missed; returns the unsubscribe.
 */
export function onBoardSignal(store: Store, listener: () => void): () => void {
  return store.signals.subscribe(BOARD_TOPIC, () => listener());
}
