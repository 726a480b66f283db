// The portable-SQL checker behind test/portable-sql.test.ts: collects a TypeScript file's string
// and template literals with the compiler API, keeps those that read as SQL and reports each
// dialect-only form (test/portable-sql-rules.ts) with its reason and the portable alternative.
import ts from 'typescript';

import { type SqlRule, SQL_RULES } from './portable-sql-rules.js';

export interface SqlLiteral {
  line: number;
  /** The literal's text; a template's substitutions read as `?`. */
  text: string;
}

export interface SqlViolation {
  file: string;
  line: number;
  rule: string;
  message: string;
}

/**
 * Statement or clause keywords, upper case as the project writes SQL: prose and identifiers
 * (a `rowid` field in src/search) never match, a fragment such as `ORDER BY …` does.
 */
const SQL_SHAPE =
  /\b(?:SELECT\b[\s\S]*\bFROM|SELECT\s+\d|INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|ORDER\s+BY|GROUP\s+BY|WHERE|JOIN|ON\s+CONFLICT|LIKE\s+[?']|CREATE\s+(?:TABLE|INDEX|VIEW|TRIGGER)|PRAGMA)(?!\w)/;

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('?');
  }
  return undefined;
}

/** A condition that holds only on SQLite (`dialect === 'sqlite'`, alone or in a conjunction). */
const SQLITE_ONLY_CONDITION = /\bdialect\s*===\s*'sqlite'/;

/**
 * Every string and template literal of `source` that reads as SQL, with its line. The SQLite
 * arm of a dialect branch (`dialect === 'sqlite' ? … : …`, `if (dialect === 'sqlite') …`) is
 * left out: that SQL never reaches PostgreSQL.
 */
export function sqlLiterals(fileName: string, source: string): SqlLiteral[] {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  const found: SqlLiteral[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isConditionalExpression(node) &&
      SQLITE_ONLY_CONDITION.test(node.condition.getText(file))
    ) {
      visit(node.whenFalse);
      return;
    }
    if (ts.isIfStatement(node) && SQLITE_ONLY_CONDITION.test(node.expression.getText(file))) {
      if (node.elseStatement !== undefined) visit(node.elseStatement);
      return;
    }
    const text = literalText(node);
    if (text !== undefined) {
      if (SQL_SHAPE.test(text)) {
        const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
        found.push({ line, text });
      }
      if (ts.isTemplateExpression(node)) node.templateSpans.forEach((s) => visit(s.expression));
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The dialect-only forms in the SQL of `source` (empty when it is portable). */
export function checkPortableSql(
  fileName: string,
  source: string,
  rules: readonly SqlRule[] = SQL_RULES,
): SqlViolation[] {
  return checkSqlLiterals(fileName, sqlLiterals(fileName, source), rules);
}

/** The dialect-only forms in SQL literals already collected from `fileName`. */
export function checkSqlLiterals(
  fileName: string,
  literals: readonly SqlLiteral[],
  rules: readonly SqlRule[] = SQL_RULES,
): SqlViolation[] {
  return literals.flatMap(({ line, text }) =>
    rules
      .filter((r) => r.matches(text))
      .map((r) => ({
        file: fileName,
        line,
        rule: r.name,
        message: `${fileName}:${line}: ${r.name}: ${r.reason}; instead: ${r.instead}`,
      })),
  );
}
