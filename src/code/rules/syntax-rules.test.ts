// The syntax rules in every language they claim, with real grammars: each has a sample that
// must be reported (at the right line) and a near miss that must not.
import { describe, expect, it } from 'vitest';

import type { CodeLanguage } from '../languages.js';
import { RULES } from './registry.js';
import { validateSource } from './validate.js';

type Case = readonly [language: CodeLanguage, bad: string, good: string, line: number];

async function run(rule: string, language: CodeLanguage, text: string) {
  return validateSource({ path: 'f', language, text }, { rules: [rule] });
}

/** Every claimed language has a case, and every case's language is claimed. */
function claimed(rule: string, cases: readonly Case[]): void {
  const languages = RULES.find((r) => r.id === rule)?.languages ?? [];
  expect([...languages].sort()).toEqual(cases.map((c) => c[0]).sort());
}

function suite(rule: string, cases: readonly Case[]): void {
  describe(rule, () => {
    it('claims exactly the languages tested here', () => claimed(rule, cases));
    it.each(cases)('%s: reported', async (language, bad, _good, line) => {
      const findings = await run(rule, language, bad);
      expect(findings.map((f) => [f.rule, f.line])).toEqual([[rule, line]]);
    });
    it.each(cases)('%s: near miss not reported', async (language, _bad, good) => {
      expect(await run(rule, language, good)).toEqual([]);
    });
  });
}

const JS_CATCH: Case = [
  'typescript',
  'try {\n  g();\n} catch (e) {}\n',
  'try {\n  g();\n} catch (e) {\n  // expected: g may be absent\n}\n',
  3,
];
suite('empty-catch', [
  JS_CATCH,
  ['tsx', JS_CATCH[1], JS_CATCH[2], 3],
  ['javascript', JS_CATCH[1], 'try { g(); } catch (e) { log(e); }\n', 3],
  [
    'python',
    'try:\n    g()\nexcept ValueError:\n    pass\n',
    'try:\n    g()\nexcept ValueError:\n    log()\n',
    3,
  ],
  [
    'java',
    'class A { void f() {\n try { g(); }\n catch (Exception e) {}\n} }\n',
    'class A { void f() {\n try { g(); }\n catch (Exception e) { log(e); }\n} }\n',
    3,
  ],
  [
    'cpp',
    'void f() {\n  try { g(); }\n  catch (...) {}\n}\n',
    'void f() {\n  try { g(); }\n  catch (...) { log(); }\n}\n',
    3,
  ],
  [
    'csharp',
    'class A { void F() {\n try { G(); }\n catch (Exception e) { }\n} }\n',
    'class A { void F() {\n try { G(); }\n catch (Exception e) { Log(e); }\n} }\n',
    3,
  ],
  [
    'php',
    '<?php\ntry { g(); }\ncatch (Exception $e) {}\n',
    '<?php\ntry { g(); }\ncatch (Exception $e) { log($e); }\n',
    3,
  ],
]);

const JS_SWALLOW: Case = [
  'typescript',
  'try {\n  g();\n} catch (e) {\n  retry();\n}\n',
  'try {\n  g();\n} catch (e) {\n  log(e);\n}\ntry {\n  g();\n} catch (e) {\n  cleanup();\n  throw new Wrapped();\n}\n',
  3,
];
suite('swallowed-error', [
  JS_SWALLOW,
  ['tsx', JS_SWALLOW[1], JS_SWALLOW[2], 3],
  [
    'javascript',
    'try { g(); } catch (err) { x = 1; }\n',
    'try { g(); } catch { x = 1; }\ntry { g(); } catch (err) {}\n',
    1,
  ],
  [
    'python',
    'try:\n    g()\nexcept ValueError as e:\n    retry()\n',
    'try:\n    g()\nexcept ValueError as e:\n    log(e)\nexcept KeyError as k:\n    raise\nexcept OSError:\n    retry()\n',
    3,
  ],
  [
    'java',
    'class A { void f() {\n try { g(); }\n catch (Exception e) { retry(); }\n} }\n',
    'class A { void f() {\n try { g(); }\n catch (Exception e) { throw new RuntimeException(); }\n} }\n',
    3,
  ],
]);

const slash = (language: CodeLanguage): Case => [
  language,
  'x();\n// TODO: remove the fallback\n',
  'x();\n// todos are tracked on the board\n',
  2,
];
suite('todo-comment', [
  slash('typescript'),
  slash('tsx'),
  slash('javascript'),
  ['python', 'x = 1\n# FIXME wrong unit\n', 'x = 1\n# fixed-point math\n', 2],
  ['go', 'package m\n/* a\n   XXX: racy */\n', 'package m\n// Todoist client\n', 3],
  ['rust', 'fn f() {}\n// HACK until 1.80\n', 'fn f() {}\n// hackable\n', 2],
  ['java', 'class A {}\n// TODO x\n', 'class A {}\n// TODOS\n', 2],
  slash('c'),
  slash('cpp'),
  slash('csharp'),
  ['ruby', 'x = 1\n# TODO: memoize\n', 'x = 1\n# to do later maybe\n', 2],
  ['php', '<?php\n$x = 1;\n# FIXME\n', '<?php\n$x = 1;\n// fixme-free\n', 3],
  ['kotlin', 'val x = 1\n/* multi\n   TODO */\n', 'val x = 1\n// Todo app\n', 3],
]);

const JS_PRINT: Case = [
  'typescript',
  'f();\nconsole.log(x);\n',
  'f();\nconsole.error(x);\nlogger.log(x);\n',
  2,
];
suite('debug-print', [
  JS_PRINT,
  ['tsx', JS_PRINT[1], JS_PRINT[2], 2],
  ['javascript', 'function f() {\n  debugger;\n}\n', 'function f() {\n  console.warn(1);\n}\n', 2],
  ['python', 'def f():\n    print("x")\n', 'def f():\n    log.print("x")\n', 2],
  [
    'go',
    'package m\nfunc f() {\n\tfmt.Println(1)\n}\n',
    'package m\nfunc f() {\n\tfmt.Sprintf("%d", 1)\n}\n',
    3,
  ],
  ['rust', 'fn f() {\n    dbg!(x);\n}\n', 'fn f() {\n    format!("{}", x);\n}\n', 2],
  [
    'java',
    'class A { void f() {\n System.out.println(1);\n} }\n',
    'class A { void f() {\n LOG.println(1);\n} }\n',
    2,
  ],
  [
    'csharp',
    'class A { void F() {\n Console.WriteLine(1);\n} }\n',
    'class A { void F() {\n Log.WriteLine(1);\n} }\n',
    2,
  ],
  ['php', '<?php\n$x = 1;\nvar_dump($x);\n', '<?php\n$x = 1;\nvar_export_to_log($x);\n', 3],
  ['kotlin', 'fun f() {\n    println(1)\n}\n', 'fun f() {\n    log.info(1)\n}\n', 2],
]);

const JS_DEAD: Case = [
  'typescript',
  'function f() {\n  return 1;\n  g();\n}\n',
  'function f() {\n  if (a) return 1;\n  g();\n  return 2;\n  function h() {}\n}\n',
  3,
];
suite('unreachable-code', [
  JS_DEAD,
  ['tsx', JS_DEAD[1], JS_DEAD[2], 3],
  [
    'javascript',
    'function f() {\n  throw new Error();\n  g();\n}\n',
    'function f() {\n  try { throw e; } finally { g(); }\n}\n',
    3,
  ],
  [
    'python',
    'def f():\n    raise E()\n    g()\n',
    'def f():\n    if a:\n        return 1\n    g()\n',
    3,
  ],
  [
    'go',
    'package m\nfunc f() int {\n\treturn 1\n\tg()\n}\n',
    'package m\nfunc f() int {\n\tif a {\n\t\treturn 1\n\t}\n\treturn 2\n}\n',
    4,
  ],
  [
    'java',
    'class A { void f() {\n for (;;) { break;\n g(); }\n} }\n',
    'class A { void f() {\n for (;;) { if (a) break;\n g(); }\n} }\n',
    3,
  ],
  [
    'c',
    'int f(void) {\n  return 1;\n  g();\n}\n',
    'int f(void) {\n  if (a) return 1;\n  g();\n  return 0;\n}\n',
    3,
  ],
  [
    'cpp',
    'int f() {\n  switch (a) {\n  case 1:\n    break;\n    g();\n  }\n  return 0;\n}\n',
    'int f() {\n  switch (a) {\n  case 1:\n    g();\n    break;\n  }\n  return 0;\n}\n',
    5,
  ],
  [
    'csharp',
    'class A { void F() {\n throw new E();\n G();\n} }\n',
    'class A { void F() {\n if (a) throw new E();\n G();\n} }\n',
    3,
  ],
  [
    'php',
    '<?php\nfunction f() {\n  return 1;\n  g();\n}\n',
    '<?php\nfunction f() {\n  if ($a) { return 1; }\n  g();\n}\n',
    4,
  ],
]);

describe('syntax rules on broken input', () => {
  it('a file with syntax errors still yields findings for what parsed', async () => {
    const findings = await run('debug-print', 'typescript', 'const x = ;\nconsole.log(1);\n');
    expect(findings.map((f) => f.line)).toEqual([2]);
  });
});
