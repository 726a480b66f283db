// Statement text for PostgreSQL: the store contract's `?` placeholders become `$1, $2, …`
// (skipping quoted strings, quoted identifiers, dollar-quoted bodies and comments), cached per text.

const cache = new Map<string, string>();
const CACHE_MAX = 4_096;

/** `sql` with each `?` placeholder numbered for PostgreSQL. */
export function pgPlaceholders(sql: string): string {
  const hit = cache.get(sql);
  if (hit !== undefined) return hit;
  const out = number(sql);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(sql, out);
  return out;
}

function number(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    const skip = skipQuoted(sql, i);
    if (skip > i) {
      out += sql.slice(i, skip);
      i = skip;
    } else if (c === '?') {
      n += 1;
      out += `$${n}`;
      i += 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The index just past a quoted section or comment starting at `i`, or `i` when none starts. */
function skipQuoted(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"') return closing(sql, i, c);
  if (c === '-' && sql[i + 1] === '-') return lineEnd(sql, i);
  if (c === '/' && sql[i + 1] === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end < 0 ? sql.length : end + 2;
  }
  if (c === '$') {
    const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
    if (tag === null) return i;
    const end = sql.indexOf(tag[0], i + tag[0].length);
    return end < 0 ? sql.length : end + tag[0].length;
  }
  return i;
}

function closing(sql: string, i: number, quote: string): number {
  let j = i + 1;
  while (j < sql.length) {
    if (sql[j] === quote) {
      if (sql[j + 1] === quote) j += 2;
      else return j + 1;
    } else j += 1;
  }
  return sql.length;
}

function lineEnd(sql: string, i: number): number {
  const end = sql.indexOf('\n', i);
  return end < 0 ? sql.length : end + 1;
}
