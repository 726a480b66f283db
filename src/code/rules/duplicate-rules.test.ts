// The duplicate-block rule in every language it claims: two functions sharing a seven-line
// block are reported at the copy's first line; the same pair with one line changed in the
// middle (each half under the token threshold) is not; whole repeated functions are left to
// duplicate-function.
import { describe, expect, it } from 'vitest';

import { type Case, run, suite } from '../../../test/code/rule-cases.js';
import type { CodeLanguage } from '../languages.js';
import { METRIC_LANGUAGES } from './metric-rules.js';
import { validateSource } from './validate.js';

/** How one language writes `total = total + values[i] * k`, a function, and a file. */
interface Dialect {
  readonly line: (i: number, op: string, k: number) => string;
  readonly fn: (name: string, start: number, block: string) => string;
  readonly file?: (body: string) => string;
}

const c =
  (indent: string, v = '') =>
  (i: number, op: string, k: number) =>
    `${indent}${v}total = ${v}total ${op} ${v}values[${i}] * ${k};`;
const bare = (indent: string) => (i: number, op: string, k: number) =>
  `${indent}total = total ${op} values[${i}] * ${k}`;
const inClass = (body: string) => `class C {\n${body}}\n`;

const DIALECTS: Record<CodeLanguage, Dialect> = {
  typescript: {
    line: c('  '),
    fn: (n, s, b) =>
      `function ${n}(values: number[]) {\n  let total = ${s};\n${b}\n  return total;\n}\n`,
  },
  tsx: {
    line: c('  '),
    fn: (n, s, b) =>
      `function ${n}(values: number[]) {\n  let total = ${s};\n${b}\n  return total;\n}\n`,
  },
  javascript: {
    line: c('  '),
    fn: (n, s, b) => `function ${n}(values) {\n  let total = ${s};\n${b}\n  return total;\n}\n`,
  },
  python: {
    line: bare('    '),
    fn: (n, s, b) => `def ${n}(values):\n    total = ${s}\n${b}\n    return total\n`,
  },
  go: {
    line: bare('\t'),
    fn: (n, s, b) => `func ${n}(values []int) int {\n\ttotal := ${s}\n${b}\n\treturn total\n}\n`,
    file: (body) => `package m\n\n${body}`,
  },
  rust: {
    line: c('    '),
    fn: (n, s, b) =>
      `fn ${n}(values: &[i32]) -> i32 {\n    let mut total = ${s};\n${b}\n    total\n}\n`,
  },
  java: {
    line: c('    '),
    fn: (n, s, b) =>
      `  int ${n}(int[] values) {\n    int total = ${s};\n${b}\n    return total;\n  }\n`,
    file: inClass,
  },
  c: {
    line: c('  '),
    fn: (n, s, b) => `int ${n}(int *values) {\n  int total = ${s};\n${b}\n  return total;\n}\n`,
  },
  cpp: {
    line: c('  '),
    fn: (n, s, b) => `int ${n}(int *values) {\n  int total = ${s};\n${b}\n  return total;\n}\n`,
  },
  csharp: {
    line: c('    '),
    fn: (n, s, b) =>
      `  int ${n}(int[] values) {\n    int total = ${s};\n${b}\n    return total;\n  }\n`,
    file: inClass,
  },
  ruby: {
    line: bare('  '),
    fn: (n, s, b) => `def ${n}(values)\n  total = ${s}\n${b}\n  total\nend\n`,
  },
  php: {
    line: c('  ', '$'),
    fn: (n, s, b) => `function ${n}($values) {\n  $total = ${s};\n${b}\n  return $total;\n}\n`,
    file: (body) => `<?php\n${body}`,
  },
  kotlin: {
    line: bare('    '),
    fn: (n, s, b) =>
      `fun ${n}(values: IntArray): Int {\n    var total = ${s}\n${b}\n    return total\n}\n`,
  },
};

/** Two functions around a seven-line block; `changed` alters the copy's fourth line. */
function pair(language: CodeLanguage, changed: boolean): string {
  const d = DIALECTS[language];
  const block = (alter: boolean) =>
    Array.from({ length: 7 }, (_, i) =>
      alter && i === 3 ? d.line(i, '-', 9) : d.line(i, '+', i + 2),
    ).join('\n');
  const body = d.fn('first', 0, block(false)) + d.fn('second', 1, block(changed));
  return d.file === undefined ? body : d.file(body);
}

/** The 1-based line where the copy of the block starts (its second occurrence). */
function copyLine(text: string, language: CodeLanguage): number {
  const head = DIALECTS[language].line(0, '+', 2);
  const lines = text.split('\n');
  return lines.findIndex((l, i) => l === head && lines.indexOf(head) < i) + 1;
}

suite(
  'duplicate-block',
  METRIC_LANGUAGES.map((language): Case => {
    const bad = pair(language, false);
    return [language, bad, pair(language, true), copyLine(bad, language)];
  }),
);

describe('duplicate-block', () => {
  it('names both line ranges and the token count', async () => {
    const findings = await run('duplicate-block', 'typescript', pair('typescript', false));
    expect(findings.map((f) => f.message)).toEqual(['lines 14–22 repeat lines 3–11 (81 tokens)']);
  });

  it('ignores comments and layout between the copies', async () => {
    const text = pair('javascript', false).replace(
      'total = total + values[5] * 7;\n  total = total + values[6]',
      'total = total + values[5] * 7; // the sixth\n  /* more */ total =\n    total + values[6]',
    );
    const findings = await run('duplicate-block', 'javascript', text);
    expect(findings).toHaveLength(1);
  });

  it('leaves a whole repeated function to duplicate-function', async () => {
    const d = DIALECTS.python;
    const block = Array.from({ length: 7 }, (_, i) => d.line(i, '+', i + 2)).join('\n');
    const text = d.fn('first', 0, block) + d.fn('second', 0, block);
    const findings = await validateSource(
      { path: 'a.py', language: 'python', text },
      { rules: ['duplicate-block', 'duplicate-function'] },
    );
    expect(findings.map((f) => f.rule)).toEqual(['duplicate-function']);
  });

  it('honours the token and line thresholds', async () => {
    const text = pair('go', false);
    expect(await run('duplicate-block', 'go', text, { duplicateTokens: 90 })).toEqual([]);
    expect(await run('duplicate-block', 'go', text, { duplicateLines: 10 })).toEqual([]);
    expect(await run('duplicate-block', 'go', text, { duplicateTokens: 30 })).toHaveLength(1);
  });
});
