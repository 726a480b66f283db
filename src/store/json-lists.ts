// One parameter holding a JSON array, read back as a set of values inside the store's own
// statements (the postings engine's, per dialect): SQLite's json_each, PostgreSQL's
// jsonb_array_elements_text. Domain SQL uses sql-lists.ts (`IN (?, ?, …)`) instead.
import type { Dialect } from './types.js';

/** `(SELECT …)` yielding the integers of the JSON array bound to its one `?`. */
export function jsonIds(dialect: Dialect): string {
  return dialect === 'sqlite'
    ? '(SELECT value FROM json_each(?))'
    : '(SELECT value::bigint FROM jsonb_array_elements_text(?::jsonb))';
}

/** `(SELECT …)` yielding the strings of the JSON array bound to its one `?`. */
export function jsonTexts(dialect: Dialect): string {
  return dialect === 'sqlite'
    ? '(SELECT value FROM json_each(?))'
    : '(SELECT value FROM jsonb_array_elements_text(?::jsonb))';
}

/**
 * A FROM item `json_each(?)`-alike whose `value` column holds the JSON array's elements:
 * integers for `ids`, strings for `texts` (alias it, e.g. `… AS w`, and read `w.value`).
 */
export function jsonEach(dialect: Dialect, of: 'ids' | 'texts'): string {
  if (dialect === 'sqlite') return 'json_each(?)';
  return of === 'ids'
    ? '(SELECT value::bigint AS value FROM jsonb_array_elements_text(?::jsonb))'
    : '(SELECT value FROM jsonb_array_elements_text(?::jsonb))';
}

/** A NUL, or a UTF-16 surrogate without its pair (JSON.stringify writes either as an escape). */
// eslint-disable-next-line no-control-regex -- U+0000 is the character PostgreSQL cannot store.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The JSON array of strings to bind for `jsonTexts` / `jsonEach(…, 'texts')`. PostgreSQL's jsonb
 * refuses the escapes of U+0000 and of a lone surrogate, which its text cannot hold: there each
 * becomes U+FFFD, the character a bound string keeps in their place, so a name holding one finds
 * the row it was stored as.
 */
export function textList(dialect: Dialect, values: readonly string[]): string {
  return JSON.stringify(
    dialect === 'sqlite' ? [...values] : values.map((v) => v.replace(UNSTORABLE, '\uFFFD')),
  );
}
