// Portable IN lists: `IN (?, ?, …)` with one parameter per value, cut into chunks that stay far
// below both backends' parameter limits (SQLite 32,766, PostgreSQL 65,535). Domain SQL uses
// these instead of SQLite's `IN (SELECT value FROM json_each(?))`.

/** Values one IN list binds at most, leaving room for the statement's other parameters. */
export const IN_LIST_MAX = 500;

/**
 * `(?, ?, …)` for `n` values. `n` must be at least 1: `IN ()` is SQLite-only, so callers skip
 * the query for an empty list (or use `inChunks`, which yields no chunk for one).
 */
export function inList(n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`inList: ${n} values`);
  return `(${Array.from({ length: n }, () => '?').join(', ')})`;
}

/** `values` in order, cut into chunks of at most `size` (none for an empty list). */
export function inChunks<T>(values: readonly T[], size = IN_LIST_MAX): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}
