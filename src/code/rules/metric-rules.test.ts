// The metric rules in every language they claim: a branchy function trips each limit at tiny
// thresholds, a flat one trips none; and the defaults and file-length rule at real sizes.
import { describe, expect, it } from 'vitest';

import type { CodeLanguage } from '../languages.js';
import { METRIC_LANGUAGES } from './metric-rules.js';
import { DEFAULT_THRESHOLDS } from './types.js';
import { validateSource } from './validate.js';

const TINY = {
  cyclomatic: 1,
  cognitive: 0,
  functionLength: 2,
  parameters: 2,
  nesting: 0,
  fileLength: 3,
};
const METRIC_IDS = [
  'cyclomatic-complexity',
  'cognitive-complexity',
  'nesting-depth',
  'function-length',
  'parameter-count',
];

/** Per language: a function with 3 parameters and a nested if, and a one-line flat one. */
const SAMPLES: Record<string, { branchy: string; flat: string }> = {
  typescript: {
    branchy:
      'function f(a: number, b: number, c: number) {\n  if (a) {\n    if (b) {\n      return c;\n    }\n  }\n  return 0;\n}\n',
    flat: 'function g(a: number) { return a; }\n',
  },
  javascript: {
    branchy:
      'function f(a, b, c) {\n  if (a) {\n    if (b) {\n      return c;\n    }\n  }\n  return 0;\n}\n',
    flat: 'function g(a) { return a; }\n',
  },
  python: {
    branchy: 'def f(a, b, c):\n    if a:\n        if b:\n            return c\n    return 0\n',
    flat: 'def g(a): return a\n',
  },
  go: {
    branchy:
      'package m\n\nfunc f(a, b, c int) int {\n\tif a > 0 {\n\t\tif b > 0 {\n\t\t\treturn c\n\t\t}\n\t}\n\treturn 0\n}\n',
    flat: 'package m\nfunc g(a int) int { return a }\n',
  },
  rust: {
    branchy:
      'fn f(a: i32, b: i32, c: i32) -> i32 {\n    if a > 0 {\n        if b > 0 {\n            return c;\n        }\n    }\n    0\n}\n',
    flat: 'fn g(a: i32) -> i32 { a }\n',
  },
  java: {
    branchy:
      'class A {\n  int f(int a, int b, int c) {\n    if (a > 0) {\n      if (b > 0) {\n        return c;\n      }\n    }\n    return 0;\n  }\n}\n',
    flat: 'class B { int g(int a) { return a; } }\n',
  },
  c: {
    branchy:
      'int f(int a, int b, int c) {\n  if (a) {\n    if (b) {\n      return c;\n    }\n  }\n  return 0;\n}\n',
    flat: 'int g(int a) { return a; }\n',
  },
  csharp: {
    branchy:
      'class A {\n  int F(int a, int b, int c) {\n    if (a > 0) {\n      if (b > 0) {\n        return c;\n      }\n    }\n    return 0;\n  }\n}\n',
    flat: 'class B { int G(int a) { return a; } }\n',
  },
  ruby: {
    branchy: 'def f(a, b, c)\n  if a\n    if b\n      return c\n    end\n  end\n  0\nend\n',
    flat: 'def g(a) = a\n',
  },
  php: {
    branchy:
      '<?php\nfunction f($a, $b, $c) {\n  if ($a) {\n    if ($b) {\n      return $c;\n    }\n  }\n  return 0;\n}\n',
    flat: '<?php function g($a) { return $a; }\n',
  },
  kotlin: {
    branchy:
      'fun f(a: Int, b: Int, c: Int): Int {\n    if (a > 0) {\n        if (b > 0) {\n            return c\n        }\n    }\n    return 0\n}\n',
    flat: 'fun g(a: Int): Int { return a }\n',
  },
};
SAMPLES.cpp = SAMPLES.c!;
SAMPLES.tsx = SAMPLES.typescript!;

const rulesOf = async (language: CodeLanguage, text: string, thresholds = TINY) =>
  (
    await validateSource(
      { path: `x.${language}`, language, text },
      { thresholds, rules: [...METRIC_IDS, 'file-length'] },
    )
  ).map((f) => f.rule);

describe('metric rules', () => {
  it('has a sample for every claimed language', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...METRIC_LANGUAGES].sort());
  });

  it.each(METRIC_LANGUAGES)('%s: a branchy function trips every limit', async (language) => {
    const sample = SAMPLES[language]!;
    const rules = await rulesOf(language, sample.branchy);
    expect([...new Set(rules)].sort()).toEqual([...METRIC_IDS, 'file-length'].sort());
  });

  it.each(METRIC_LANGUAGES)('%s: a flat function trips none', async (language) => {
    expect(await rulesOf(language, SAMPLES[language]!.flat)).toEqual([]);
  });

  it.each(METRIC_LANGUAGES)(
    '%s: the branchy function is fine at the defaults',
    async (language) => {
      expect(await rulesOf(language, SAMPLES[language]!.branchy, DEFAULT_THRESHOLDS)).toEqual([]);
    },
  );

  it('reports the function, its measure and the limit at its first line', async () => {
    const text = `\n\n${SAMPLES.typescript!.branchy}`;
    const findings = await validateSource(
      { path: 'a.ts', language: 'typescript', text },
      { rules: ['parameter-count'], thresholds: { parameters: 2 } },
    );
    expect(findings).toEqual([
      {
        path: 'a.ts',
        line: 3,
        column: 1,
        rule: 'parameter-count',
        severity: 'warning',
        message: 'f has parameter count 3 (over 2)',
      },
    ]);
  });

  it('file length: over the default limit, and not at it', async () => {
    const at = (n: number) => 'x = 1\n'.repeat(n);
    const over = await validateSource(
      { path: 'a.py', language: 'python', text: at(501) },
      { rules: ['file-length'] },
    );
    expect(over.map((f) => [f.line, f.message])).toEqual([[1, 'file has 501 lines (over 500)']]);
    const ok = await validateSource(
      { path: 'a.py', language: 'python', text: at(500) },
      { rules: ['file-length'] },
    );
    expect(ok).toEqual([]);
  });

  it('cognitive default: 16 is over, and a custom threshold lifts it', async () => {
    const ifs = Array.from({ length: 16 }, (_, i) => `  if (a === ${i}) g();`).join('\n');
    const text = `function f(a) {\n${ifs}\n}\n`;
    const run = (cognitive?: number) =>
      validateSource(
        { path: 'a.js', language: 'javascript', text },
        {
          rules: ['cognitive-complexity'],
          ...(cognitive === undefined ? {} : { thresholds: { cognitive } }),
        },
      );
    expect((await run()).map((f) => f.message)).toEqual([
      'f has cognitive complexity 16 (over 15)',
    ]);
    expect(await run(16)).toEqual([]);
  });
});

/** The branchy sample again, without a file header a second copy must not repeat. */
const again = (text: string): string => text.replace(/^(<\?php|package m)\n+/, '');

describe('duplicate-function', () => {
  const dup = (language: CodeLanguage, text: string) =>
    validateSource(
      { path: 'd', language, text },
      { rules: ['duplicate-function'], thresholds: { duplicateLines: 4 } },
    );

  it.each(METRIC_LANGUAGES)('%s: a repeated function is reported at the copy', async (language) => {
    const first = SAMPLES[language]!.branchy;
    const findings = await dup(language, first + again(first));
    expect(findings).toHaveLength(1);
    expect(findings[0]!.line).toBeGreaterThan(first.split('\n').length - 2);
    expect(findings[0]!.message).toMatch(/repeats the body of/);
  });

  it.each(METRIC_LANGUAGES)('%s: different functions are not', async (language) => {
    const { branchy, flat } = SAMPLES[language]!;
    expect(await dup(language, branchy + again(flat))).toEqual([]);
  });

  it('needs duplicateLines body lines (default 6)', async () => {
    const fn = (name: string) => `function ${name}(a) {\n  a += 1;\n  a += 2;\n  return a;\n}\n`;
    const text = fn('f') + fn('g');
    const run = (duplicateLines?: number) =>
      validateSource(
        { path: 'd.js', language: 'javascript', text },
        {
          rules: ['duplicate-function'],
          ...(duplicateLines === undefined ? {} : { thresholds: { duplicateLines } }),
        },
      );
    expect(await run()).toEqual([]);
    expect((await run(4)).map((f) => [f.line, f.message])).toEqual([
      [6, 'g (lines 6–10) repeats the body of f (lines 1–5)'],
    ]);
  });
});
