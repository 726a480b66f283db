// Tests of analyzeSource: SLOC, blank and comment lines, parameters, length, nesting, names,
// file-level measures, syntax errors, budgets and typed refusals; real grammars throughout.
import { describe, expect, it } from 'vitest';

import { DomainError, InvalidInputError } from '../../shared/errors.js';
import { CODE_LANGUAGES, type CodeLanguage } from '../languages.js';
import { analyzeSource } from './analyze.js';
import { analyze, fn } from './test-helpers.js';

const TS_LINES = [
  '// header comment', //       comment-only
  '', //                        blank
  '/* block', //                comment-only
  '   still comment */', //     comment-only
  'const a = 1; // trailing', // code (a comment after code is still a source line)
  '   ', //                     blank (whitespace only)
  'function f() {', //          code
  '  /* inline */ return a;', // code
  '}', //                       code (a lone brace is a source line)
].join('\n');

describe('SLOC, blank and comment lines', () => {
  it('counts source lines without blank and comment-only lines (TypeScript)', async () => {
    const m = await analyze('typescript', `${TS_LINES}\n`);
    expect({ lines: m.lines, sloc: m.sloc, blank: m.blankLines, comment: m.commentLines }).toEqual({
      lines: 9,
      sloc: 4,
      blank: 2,
      comment: 3,
    });
    expect(m.functions[0]).toMatchObject({
      name: 'f',
      sloc: 3,
      length: 3,
      startLine: 7,
      endLine: 9,
    });
  });

  it('counts Python # comments out and a docstring in (it is a string statement)', async () => {
    const src = [
      'def f(x):', //        code
      '    """Doc."""', //   code: a docstring is an expression statement
      '', //                 blank
      '    # note', //       comment-only
      '    return x  # y', // code
    ].join('\n');
    const m = await analyze('python', src);
    expect({ lines: m.lines, sloc: m.sloc, blank: m.blankLines, comment: m.commentLines }).toEqual({
      lines: 5,
      sloc: 3,
      blank: 1,
      comment: 1,
    });
  });

  it('keeps blank lines inside a multi-line string as source lines', async () => {
    const m = await analyze('javascript', 'const s = `a\n\nb`;\n');
    expect(m.sloc).toBe(3); // the template literal spans all three rows
  });

  it('reads Rust doc comments and Ruby comments as comments', async () => {
    const rust = await analyze('rust', '/// doc\n//! inner\nfn f() {}\n');
    expect({ sloc: rust.sloc, comment: rust.commentLines }).toEqual({ sloc: 1, comment: 2 });
    const ruby = await analyze('ruby', '# c\ndef f\nend\n');
    expect({ sloc: ruby.sloc, comment: ruby.commentLines }).toEqual({ sloc: 2, comment: 1 });
  });
});

describe('function length, parameters and nesting', () => {
  const cases: [CodeLanguage, string, string, number][] = [
    ['typescript', 'class A { m(a: number, b = 2, ...r: number[]) {} }', 'm', 3],
    ['python', 'class A:\n    def m(self, a, *r, **k):\n        pass\n', 'm', 3], // self not counted
    ['go', 'package p\nfunc f(a, b int, c string, xs ...int) {}\n', 'f', 4], // a, b share a type
    ['rust', 'impl S { fn m(&self, a: i32, b: i32) {} }', 'm', 2], // &self not counted
    ['java', 'class A { void m(int a, String... r) {} }', 'm', 2],
    ['c', 'int f(void) { return 0; }\nint g(int a, char *b, ...) { return a; }\n', 'f', 0],
    ['c', 'int g(int a, char *b, ...) { return a; }\n', 'g', 3],
    ['cpp', 'int A::n(int x, int y = 2) { return x; }', 'A::n', 2],
    ['csharp', 'class A { int M(int x, string y) { return x; } }', 'M', 2],
    ['ruby', 'def m(x, y = 2, *r, &blk)\nend\n', 'm', 4],
    ['php', '<?php function f($a, int ...$r) { return $a; }', 'f', 2],
    ['kotlin', 'fun m(x: Int, vararg r: Int): Int { return x }', 'm', 2],
  ];
  for (const [language, src, name, parameters] of cases) {
    it(`counts ${parameters} parameters of ${name} in ${language}`, async () => {
      expect((await fn(language, src, name)).parameters).toBe(parameters);
    });
  }

  it('reports length in lines and the deepest nesting', async () => {
    const src = 'function f(a) {\n  for (;;) {\n    if (a) {\n      while (a) {}\n    }\n  }\n}\n';
    const m = await fn('typescript', src, 'f');
    expect({ length: m.length, maxNesting: m.maxNesting }).toEqual({ length: 7, maxNesting: 3 });
  });

  it('reports nested named functions on their own and folds inner lambdas into their parent', async () => {
    const src =
      'function outer() {\n  function inner(x) { return x ? 1 : 0; }\n  return [1].map((y) => y);\n}\n';
    const m = await analyze('typescript', src);
    expect(m.functions.map((f) => f.name)).toEqual(['outer', 'inner']);
    // outer contains inner: ternary at nesting 1 → +2 in outer, +1 in inner itself.
    expect(m.functions.map((f) => f.cognitive)).toEqual([2, 1]);
  });
});

describe('file metrics and robustness', () => {
  it('measures the file as one routine: 1 + every decision point', async () => {
    const m = await analyze(
      'python',
      'def f(a):\n    if a:\n        pass\n\ndef g(b):\n    while b:\n        pass\n\nif x:\n    pass\n',
    );
    expect(m.cyclomatic).toBe(4); // 1 + if + while + top-level if
    expect(m.cognitive).toBe(3); // each at nesting 0: functions at file level add no nesting
  });

  it('never throws on syntax errors and says the tree had them', async () => {
    const m = await analyze('java', 'class A { int m( { if (x { return; } } } }} ((');
    expect(m.hasSyntaxErrors).toBe(true);
    expect(m.cyclomatic).toBeGreaterThanOrEqual(1);
    const empty = await analyze('go', '');
    expect({ lines: empty.lines, sloc: empty.sloc, functions: empty.functions.length }).toEqual({
      lines: 0,
      sloc: 0,
      functions: 0,
    });
  });

  it('measures garbage in every grammar without throwing', async () => {
    const garbage = 'if (( { else } case => && || ?? fn def func [ ] ) end "unterminated \n\t/* x';
    for (const language of CODE_LANGUAGES) {
      const m = await analyze(language, garbage);
      expect(m.cyclomatic, language).toBeGreaterThanOrEqual(1);
      expect(m.lines, language).toBe(2);
    }
  });

  it('survives deep nesting without recursion and stops at its step budget', async () => {
    const deep = `function f(a) { return ${'('.repeat(3000)}a${')'.repeat(3000)} && a; }`;
    const m = await analyze('javascript', deep);
    expect(m.functions[0]?.cognitive).toBe(1);
    const capped = await analyzeSource(
      { path: 'x.ts', language: 'typescript', text: 'function f() {}\n'.repeat(50) },
      { maxSteps: 200, maxFunctions: 10 },
    );
    expect(capped.truncated).toBe(true);
    expect(capped.functions.length).toBeLessThanOrEqual(10);
  });

  it('refuses an unknown language and an oversized text with typed errors', async () => {
    const bad = analyzeSource({ path: 'a.x', language: 'cobol' as CodeLanguage, text: '' });
    await expect(bad).rejects.toBeInstanceOf(InvalidInputError);
    await expect(bad).rejects.toMatchObject({ field: 'language' });
    const big = analyzeSource(
      { path: 'a.ts', language: 'typescript', text: 'x'.repeat(101) },
      { maxChars: 100 },
    );
    await expect(big).rejects.toMatchObject({ field: 'text' });
    await expect(big).rejects.toBeInstanceOf(DomainError);
  });
});

describe('bare lambda parameters', () => {
  it('counts one parameter for x => x and for a Python lambda', async () => {
    expect((await fn('javascript', 'const id = x => x;', 'id')).parameters).toBe(1);
    expect((await fn('python', 'add = lambda a, b: a + b\n', 'add')).parameters).toBe(2);
  });
});

describe('names of functions the grammar leaves unnamed', () => {
  it('names C# accessors after their property and Kotlin secondary constructors', async () => {
    const cs = await analyze('csharp', 'class A { int P { get { return 1; } set { } } }');
    expect(cs.functions.map((f) => f.name)).toEqual(['P.get', 'P.set']);
    const kt = await analyze('kotlin', 'class A(val z: Int) {\n  constructor() : this(1) {}\n}\n');
    expect(kt.functions.map((f) => f.name)).toEqual(['constructor']);
    const prop = await analyze('kotlin', 'class B {\n  val size: Int\n    get() = 1\n}\n');
    expect(prop.functions.map((f) => f.name)).toEqual(['size.get']);
  });
});

describe('names of top-level lambdas', () => {
  const cases: [CodeLanguage, string, string][] = [
    ['javascript', 'const o = { f: () => 1 };', 'f'],
    ['python', 'g = lambda: 1\n', 'g'],
    ['kotlin', 'val h = { x: Int -> x }\n', 'h'],
    ['go', 'package p\nvar run = func() {}\n', 'run'],
  ];
  for (const [language, src, name] of cases) {
    it(`finds ${name} in ${language}`, async () => {
      expect((await analyze(language, src)).functions.map((f) => f.name)).toContain(name);
    });
  }
});
