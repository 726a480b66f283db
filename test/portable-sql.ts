// The portable-SQL checker behind test/portable-sql.test.ts: collects a TypeScript file's string
// and template literals with the compiler API, keeps those that read as SQL and reports each
// dialect-only form (test/portable-sql-rules.ts) with its reason and the portable alternative.
import ts from 'typescript';

import { SQL_RULES } from './portable-sql-rules.js';

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

/** Every string and template literal of `source` that reads as SQL, with its line. */
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
export function checkPortableSql(fileName: string, source: string): SqlViolation[] {
  return checkSqlLiterals(fileName, sqlLiterals(fileName, source));
}

/** The dialect-only forms in SQL literals already collected from `fileName`. */
export function checkSqlLiterals(
  fileName: string,
  literals: readonly SqlLiteral[],
): SqlViolation[] {
  return literals.flatMap(({ line, text }) =>
    SQL_RULES.filter((r) => r.matches(text)).map((r) => ({
      file: fileName,
      line,
      rule: r.name,
      message: `${fileName}:${line}: ${r.name}: ${r.reason}; instead: ${r.instead}`,
    })),
  );
}
