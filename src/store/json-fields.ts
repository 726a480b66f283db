// One key of a JSON object column read inside the store's own statements, per dialect: SQLite's
// json_type/json_extract, PostgreSQL's jsonb operators. Domain SQL never reads JSON in SQL.
import type { Dialect } from './types.js';

/**
 * An expression giving the top-level `key` of the JSON object in `column` when its value is a
 * string, else NULL (a number, a list, no such key). `column` and `key` are trusted names.
 */
export function jsonStringField(dialect: Dialect, column: string, key: string): string {
  if (!/^\w+$/.test(key)) throw new Error(`not a plain JSON key: ${key}`);
  return dialect === 'sqlite'
    ? `(CASE WHEN json_type(${column}, '$.${key}') = 'text' THEN json_extract(${column}, '$.${key}') END)`
    : `(CASE WHEN jsonb_typeof(${column}::jsonb -> '${key}') = 'string' THEN ${column}::jsonb ->> '${key}' END)`;
}
