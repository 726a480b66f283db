// The syntax rules in every language they claim, with real grammars: each has a sample that
// must be reported (at the right line) and a near miss that must not.
import { describe, expect, it } from 'vitest';

import { type Case, run, suite } from '../../../test/code/rule-cases.js';
import type { CodeLanguage } from '../languages.js';

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
  [
    'ruby',
    'def f\n  x = 1\n  puts x\nend\n',
    'def f\n  $stdout.puts 1\n  logger.p(1)\n  p = 2\nend\n',
    3,
  ],
]);

describe('debug-print in Ruby', () => {
  it('finds p, pp, binding.pry and a bare byebug, receiver-aware', async () => {
    const text = 'p x\npp y\nbinding.pry\nbinding.irb\nbyebug\nfoo.byebug\nlog.pp(z)\n';
    const findings = await run('debug-print', 'ruby', text);
    expect(findings.map((f) => [f.line, f.message])).toEqual([
      [1, 'debug output left in: p'],
      [2, 'debug output left in: pp'],
      [3, 'debug output left in: binding.pry'],
      [4, 'debug output left in: binding.irb'],
      [5, 'debugger call left in: byebug'],
    ]);
  });
});

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

describe('unreachable-code in C++', () => {
  it('a statement after throw is unreachable; a throw in a branch is not', async () => {
    const text =
      'void f() {\n  throw std::runtime_error("x");\n  g();\n}\nvoid h() {\n  if (a) throw 1;\n  g();\n}\n';
    const findings = await run('unreachable-code', 'cpp', text);
    expect(findings.map((f) => [f.line, f.message])).toEqual([[3, 'unreachable code after throw']]);
  });
});

describe('syntax rules on broken input', () => {
  it('a file with syntax errors still yields findings for what parsed', async () => {
    const findings = await run('debug-print', 'typescript', 'const x = ;\nconsole.log(1);\n');
    expect(findings.map((f) => f.line)).toEqual([2]);
  });
});
