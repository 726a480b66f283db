// The dialect-only SQL forms that must not appear outside src/store (issue 16): each with why it
// breaks on PostgreSQL 15 and the portable form to write instead. Pure data and string tests;
// test/portable-sql.ts applies them to the SQL-looking literals of a source file.

export interface SqlRule {
  name: string;
  /** True when `sql` (one literal, substitutions replaced by `?`) uses the form. */
  matches(sql: string): boolean;
  reason: string;
  instead: string;
}

function regex(re: RegExp): (sql: string) => boolean {
  return (sql) => re.test(sql);
}

/** The text between the parenthesis at `open` and its match (or to the end). */
function parenthesised(sql: string, open: number): string {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    if (sql[i] === '(') depth++;
    else if (sql[i] === ')' && --depth === 0) return sql.slice(open + 1, i);
  }
  return sql.slice(open + 1);
}

/** `MAX(a, b)` / `MIN(a, b)`: the scalar forms, told from the aggregates by a top-level comma. */
function scalarMinMax(sql: string): boolean {
  for (const m of sql.matchAll(/\b(?:max|min)\s*\(/gi)) {
    const inner = parenthesised(sql, (m.index ?? 0) + m[0].length - 1);
    let depth = 0;
    for (const ch of inner) {
      if (ch === '(') depth++;
      else if (ch === ')') depth--;
      else if (ch === ',' && depth === 0) return true;
    }
  }
  return false;
}

/** `sql` with its quoted strings and quoted names blanked out (same length, same lines). */
function unquoted(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|"[^"]*"/g, (m) => m.replace(/[^\n]/g, ' '));
}

/** The parts of `text` between its top-level commas (parentheses nest). */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return [...parts, text.slice(start)];
}

/** A lower-case name that is neither qualified (`t.x`, `excluded.x`) nor a call (`lower(x)`). */
const BARE_COLUMN = /(?<![\w.?])[a-z_][a-z0-9_]*\b(?!\s*[.(])/;

/**
 * An upsert whose DO UPDATE reads a bare column (`SET n = n + 1`, `WHEN excluded.c > c`):
 * PostgreSQL sees both the target row and `excluded` there, and calls the name ambiguous.
 */
function unqualifiedUpsertColumn(sql: string): boolean {
  const text = unquoted(sql);
  for (const m of text.matchAll(/\bDO\s+UPDATE\s+SET\b/gi)) {
    const tail = text.slice((m.index ?? 0) + m[0].length).split(/\bRETURNING\b/i)[0] ?? '';
    const [set = '', where = ''] = tail.split(/\bWHERE\b/i);
    const values = topLevelParts(set).map((part) => part.replace(/^\s*\w+\s*=/, ''));
    if ([...values, where].some((expr) => BARE_COLUMN.test(expr))) return true;
  }
  return false;
}

export const SQL_RULES: readonly SqlRule[] = [
  {
    name: 'rowid',
    matches: regex(/(?<![\w."'])(?:\w+\.)?(?:rowid|_rowid_|oid)\b(?!["'])/i),
    reason: 'rowid is an implicit SQLite column; PostgreSQL tables have none',
    instead:
      'order by an explicit key (a time-ordered id, a sequence column) or move the lookup behind a named store operation',
  },
  {
    name: 'INSERT OR …',
    matches: regex(/\bINSERT\s+OR\s+(?:IGNORE|REPLACE|ABORT|FAIL|ROLLBACK)\b/i),
    reason: 'INSERT OR IGNORE/REPLACE is SQLite-only syntax',
    instead: 'INSERT … ON CONFLICT (cols) DO NOTHING / DO UPDATE SET …',
  },
  {
    name: 'REPLACE INTO',
    matches: regex(/(?:^|[^\w(,\s]\s*|^\s*)\bREPLACE\s+INTO\b/i),
    reason: 'REPLACE INTO is SQLite/MySQL-only',
    instead: 'INSERT … ON CONFLICT (cols) DO UPDATE SET …',
  },
  {
    name: 'ON CONFLICT DO UPDATE without a target',
    matches: regex(/\bON\s+CONFLICT\s+DO\s+UPDATE\b/i),
    reason: 'PostgreSQL needs a conflict target for DO UPDATE',
    instead: 'ON CONFLICT (key columns) DO UPDATE SET …',
  },
  {
    name: 'SQLite JSON functions',
    matches: regex(
      /\bjson_(?:each|tree|extract|group_array|group_object|object|array|insert|replace|set|remove|patch|valid|type|quote)\s*\(/i,
    ),
    reason: 'SQLite JSON1 functions are missing or mean something else on PostgreSQL',
    instead: 'expand id lists with inList() (IN (?, ?, …)), or a named store operation',
  },
  {
    name: 'COLLATE NOCASE/RTRIM',
    matches: regex(/\bCOLLATE\s+(?:NOCASE|RTRIM)\b/i),
    reason: 'NOCASE and RTRIM are SQLite collations',
    instead: 'ORDER BY lower(col), col (or compare lower(col))',
  },
  {
    name: 'GLOB / REGEXP',
    matches: regex(/\b(?:NOT\s+)?(?:GLOB|REGEXP)\b/i),
    reason: 'GLOB and REGEXP are SQLite operators',
    instead: 'LIKE with ESCAPE, or filter in TypeScript',
  },
  {
    name: 'LIKE without lower()',
    matches: regex(/(?<!\blower\([^()]*\)\s*(?:NOT\s+)?)\bLIKE\b/i),
    reason: "SQLite's LIKE ignores ASCII case, PostgreSQL's does not",
    instead: 'lower(col) LIKE lower(?) (keeps the case-insensitive match on both)',
  },
  {
    name: 'IFNULL',
    matches: regex(/\bIFNULL\s*\(/i),
    reason: 'IFNULL is not PostgreSQL',
    instead: 'COALESCE(a, b)',
  },
  {
    name: 'scalar MAX(a, b) / MIN(a, b)',
    matches: scalarMinMax,
    reason: 'PostgreSQL has only the aggregate MAX/MIN (SQLite lacks GREATEST/LEAST)',
    instead: 'CASE WHEN a > b THEN a ELSE b END, or compute in TypeScript',
  },
  {
    name: 'SQLite date functions',
    matches: regex(/\b(?:strftime|datetime|julianday|unixepoch|date|time)\s*\(/i),
    reason: 'SQLite date/time functions do not exist on PostgreSQL',
    instead: 'pass times as ISO-8601 text or epoch numbers computed in TypeScript',
  },
  {
    name: 'LIMIT -1 / LIMIT n, m',
    matches: regex(/\bLIMIT\s+(?:-\s*1\b|[\w?]+\s*,)/i),
    reason: 'LIMIT -1 and the LIMIT offset, count form are SQLite/MySQL-only',
    instead: 'leave LIMIT out, and write LIMIT ? OFFSET ?',
  },
  {
    name: 'other SQLite-only functions',
    matches: regex(
      /\b(?:instr|typeof|group_concat|printf|hex|randomblob|zeroblob|last_insert_rowid|changes|total_changes|sqlite_version|likely|unlikely|iif)\s*\(/i,
    ),
    reason: 'a SQLite-only function',
    instead: 'a portable expression, a named store operation, or TypeScript',
  },
  {
    name: 'SQLite-only statements and objects',
    matches: regex(
      /\b(?:PRAGMA|BEGIN\s+(?:IMMEDIATE|EXCLUSIVE|DEFERRED)|AUTOINCREMENT|WITHOUT\s+ROWID|sqlite_\w+|fts5|vec0|ATTACH\s+DATABASE|MATCH)\b/i,
    ),
    reason: 'SQLite-only (pragmas, transactions, FTS5, sqlite-vec, catalog tables)',
    instead: 'a named store operation in src/store',
  },
  {
    name: 'IS ? / IS column',
    matches: regex(
      /\bIS\s+(?:NOT\s+)?(?!NULL\b|TRUE\b|FALSE\b|DISTINCT\b|NOT\b)(?:\?|[a-z_]\w*\.?\w*)/i,
    ),
    reason: 'SQLite IS compares any two values; PostgreSQL allows IS only with NULL/TRUE/FALSE',
    instead: 'IS NOT DISTINCT FROM ?',
  },
  {
    name: 'untyped ? IS NULL',
    matches: regex(/\?\s+IS\s+(?:NOT\s+)?NULL\b/i),
    reason: 'PostgreSQL cannot infer the type of a parameter only tested for NULL',
    instead: 'CAST(? AS TEXT) IS NULL (the type of the column it stands for)',
  },
  {
    name: 'double-quoted string literal',
    matches: regex(/(?:[=<>]|\bIN\s*\(|\bTHEN|\bELSE|\bLIKE)\s*"[^"]*"/i),
    reason:
      'SQLite reads "text" as a string when no column has that name; PostgreSQL reads an identifier',
    instead: "single-quoted 'text' or a ? parameter",
  },
  {
    name: 'mixed-case alias',
    matches: regex(/\bAS\s+[a-z_][a-z0-9_]*[A-Z]\w*/),
    reason: 'PostgreSQL folds unquoted names to lower case (AS taskId comes back as taskid)',
    instead: 'alias in snake_case, or quote it: AS "taskId"',
  },
  {
    name: 'mixed-case name',
    matches: (sql) => /(?<![\w$]|\b[Aa][Ss]\s+)[a-z_][a-z0-9_]*[A-Z]\w*/.test(unquoted(sql)),
    reason:
      'PostgreSQL folds an unquoted name to lower case: ORDER BY evidenceCount looks for evidencecount',
    instead:
      'name the expression again (ORDER BY COUNT(*)), snake_case, or quote it: "evidenceCount"',
  },
  {
    name: 'unqualified column in DO UPDATE',
    matches: unqualifiedUpsertColumn,
    reason:
      'in ON CONFLICT … DO UPDATE PostgreSQL sees the target row and excluded: a bare column is ambiguous',
    instead: 'qualify it with the table name: SET n = counts.n + excluded.n',
  },
];
