// Board unit-test support: a board over a fresh in-memory store, closed after each test.
import { afterEach } from 'vitest';

import { type Board, createBoard } from '../src/board/index.js';
import type { BoardOptions } from '../src/board/index.js';
import { openSqliteStore, type Store } from '../src/store/index.js';

const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** A board (and its store) on a new in-memory database; closed after the current test. */
export async function openTestBoard(
  options: BoardOptions = {},
): Promise<{ board: Board; store: Store }> {
  const store = await openSqliteStore(':memory:');
  stores.push(store);
  return { board: createBoard(store, options), store };
}
