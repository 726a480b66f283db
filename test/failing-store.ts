// A store whose write transactions fail at one chosen statement, standing in for a process
// that dies mid-transaction: what a write would have committed with that statement must not
// be in the file afterwards.
import type { Queryable, SqlValue, Store } from '../src/store/index.js';

/** Picks the statement that fails. */
export type Trap = (sql: string, params: readonly SqlValue[]) => boolean;

/** The store, except that a statement `trap` matches throws `simulated crash` in writes. */
export function failingStore(store: Store, trap: Trap): Store {
  const guard = (q: Queryable): Queryable => ({
    dialect: q.dialect,
    all: (sql, params) => q.all(sql, params),
    get: (sql, params) => q.get(sql, params),
    run: (sql, params = []) =>
      trap(sql, params) ? Promise.reject(new Error('simulated crash')) : q.run(sql, params),
  });
  return {
    dialect: store.dialect,
    memoryIndex: store.memoryIndex,
    codeIndex: store.codeIndex,
    vaultIndex: store.vaultIndex,
    graphIndex: store.graphIndex,
    location: store.location,
    signals: store.signals,
    locks: store.locks,
    locator: store.locator,
    warnings: store.warnings,
    vectorWarnings: store.vectorWarnings,
    all: (sql, params) => store.all(sql, params),
    get: (sql, params) => store.get(sql, params),
    run: (sql, params = []) =>
      trap(sql, params) ? Promise.reject(new Error('simulated crash')) : store.run(sql, params),
    write: (fn, options) => store.write((tx) => fn(guard(tx)), options),
    read: (fn) => store.read(fn),
    checkpoint: () => store.checkpoint(),
    close: () => store.close(),
  };
}
