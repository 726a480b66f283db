// The sql-injection rule: an SQL statement built at the call site (interpolated, concatenated
// with a non-literal, printf-formatted) and passed to a query/execute call. Call-site only, like
// the shell rule: a statement kept in a variable first is not followed.
import type { CodeLanguage } from '../languages.js';
import type { SyntaxNode } from '../parser.js';
import { JS_LANGUAGES } from './shell-rule.js';
import { builtString, builtValues, VALUE } from './strings.js';
import type { RawFinding, Rule } from './types.js';

function at(node: SyntaxNode, message: string): RawFinding {
  return { line: node.startPosition.row + 1, column: node.startPosition.column + 1, message };
}

/** Names of the calls that run SQL text, across the drivers and ORMs of the claimed languages. */
const SQL_CALLS: ReadonlySet<string> = new Set([
  'query',
  'execute',
  'executemany',
  'executescript',
  'exec',
  'raw',
  'prepare',
  'run',
  'all',
  'executeQuery',
  'executeUpdate',
  'executeLargeUpdate',
  'addBatch',
  'prepareStatement',
  'prepareCall',
  'createQuery',
  'createNativeQuery',
  'createSQLQuery',
  'rawQuery',
  'execSQL',
  'queryForList',
  'queryForObject',
  'update',
  'Query',
  'QueryRow',
  'QueryContext',
  'QueryRowContext',
  'Exec',
  'ExecContext',
  'Prepare',
  'PrepareContext',
  'Select',
  'Get',
  'mysqli_query',
  'mysql_query',
  'pg_query',
  'sqlsrv_query',
  '$queryRawUnsafe',
  '$executeRawUnsafe',
  'queryRawUnsafe',
  'executeRawUnsafe',
  'FromSqlRaw',
  'ExecuteSqlRaw',
  'ExecuteSqlCommand',
  'SqlCommand',
  'OleDbCommand',
  'Execute',
  'exec_query',
  'find_by_sql',
  'select_all',
  'select_one',
  'select_value',
]);

/** The literal text of an SQL statement: a statement keyword and the clause it needs. */
const SQL_STATEMENT = new RegExp(
  [
    String.raw`^\s*\(?\s*select\s[\s\S]*\bfrom\b`,
    String.raw`^\s*(insert|replace|merge)\s+(or\s+\w+\s+)?into\b`,
    String.raw`^\s*update\s[\s\S]*\bset\b`,
    String.raw`^\s*delete\s+from\b`,
    String.raw`^\s*with\s+(recursive\s+)?\w+[\s\S]*\bas\s*\(`,
    String.raw`^\s*(create|drop|alter)\s+(or\s+replace\s+|temp(orary)?\s+|unique\s+)?(table|index|view|database|schema|trigger)\b`,
    String.raw`^\s*truncate\s`,
  ].join('|'),
  'i',
);

/** A value that only generates placeholders (`ids.map(() => '?').join()`, `placeholders`). */
const PLACEHOLDER = /(['"`])(\?|\$\d+|:\w+|@\w+|%s)\1|placeholder/i;

/**
 * A value spliced where SQL expects a value: after a comparison (SET's `=` too), in a VALUES or
 * IN list. A value after FROM, INTO, TABLE, WHERE, AND or LIMIT is an identifier or a fragment
 * built elsewhere, which this rule cannot judge.
 */
const AFTER_OPERATOR = /(=|<>|!=|<|>|\blike|\bbetween)\s*['"%]*$/i;
const IN_LIST = /\b(values|in)\s*\((?!\s*select\b)[^)]*$/i;
/** A constant (`FILES_PER_STEP`, `Limits.MAX_ROWS`) is written by the program, not a user. */
const CONSTANT = /^([A-Za-z_$][\w$]*\.)*[A-Z][A-Z0-9_]*$/;

/** For each VALUE in `text`, whether it sits in a value position. */
function valueSlots(text: string): boolean[] {
  const slots: boolean[] = [];
  for (let i = text.indexOf(VALUE); i >= 0; i = text.indexOf(VALUE, i + 1)) {
    const before = text.slice(0, i);
    slots.push(AFTER_OPERATOR.test(before) || IN_LIST.test(before));
  }
  return slots;
}

/**
 * A built SQL statement with a value in a value position that is not a placeholder list.
 * Values pair with their slots in order; when the counts differ, any value counts.
 */
function isBuiltSql(node: SyntaxNode, language: CodeLanguage): boolean {
  const text = builtString(node, language);
  if (text === null || !SQL_STATEMENT.test(text)) return false;
  const slots = valueSlots(text);
  if (!slots.includes(true)) return false;
  const values = builtValues(node, language);
  const inSlot = values.length === slots.length ? values.filter((_, i) => slots[i]) : values;
  return inSlot.some((v) => !PLACEHOLDER.test(v.text) && !CONSTANT.test(v.text));
}

export const SQL_RULE: Rule = {
  id: 'sql-injection',
  category: 'security',
  severity: 'warning',
  languages: [...JS_LANGUAGES, 'python', 'go', 'java', 'kotlin', 'csharp', 'php', 'ruby'],
  description:
    'An SQL statement (SELECT … FROM, INSERT INTO, UPDATE … SET, DELETE FROM, DDL) built from values at the call site — interpolated, concatenated or formatted — and passed to a query/execute call. Use placeholders and bound parameters.',
  check(context) {
    return context.calls().flatMap((call) => {
      if (!SQL_CALLS.has(call.name)) return [];
      const sql = call.args.find((a) => isBuiltSql(a, context.language));
      return sql === undefined
        ? []
        : [at(sql, `SQL built from values passed to ${call.callee}; use bound parameters`)];
    });
  },
};
