// The structure rules in every language they claim: an empty named function is reported and a
// commented, constructor or expression-bodied one is not; a class over the method threshold is
// reported (at a tiny threshold) and one at it is not, nested classes counted apart.
import { describe, expect, it } from 'vitest';

import { type Case, run, suite } from '../../../test/code/rule-cases.js';

const JS_EMPTY: Case = [
  'typescript',
  'const a = 1;\nfunction reset() {}\n',
  'class A {\n  constructor(private x: number) {}\n  m() {\n    // nothing to release\n  }\n}\nconst noop = () => {};\nfunction noopHandler() {}\n',
  2,
];
suite('empty-function', [
  JS_EMPTY,
  ['tsx', JS_EMPTY[1], JS_EMPTY[2], 2],
  ['javascript', 'class A {\n  m() {}\n}\n', 'class A {\n  m() { return 1; }\n}\n', 2],
  [
    'python',
    'x = 1\ndef f():\n    pass\n',
    'x = 1\ndef f():\n    """Subclasses override."""\n@abstractmethod\ndef g():\n    pass\ndef h(): ...\nclass A:\n    def __init__(self):\n        pass\n',
    2,
  ],
  [
    'go',
    'package m\n\nfunc f() {}\n',
    'package m\n\nfunc (e *BadExpr) exprNode() {}\nfunc g() {\n\t// deliberately empty\n}\n',
    3,
  ],
  ['rust', 'fn f() {}\n', 'trait T {\n    fn hook(&self) {}\n}\nfn g() -> i32 { 1 }\n', 1],
  [
    'java',
    'class A {\n  void m() {}\n}\n',
    'class A {\n  private A() {}\n  interface I { default void d() {} }\n  void m() { /* optional hook */ }\n}\n',
    2,
  ],
  ['c', 'int x;\nvoid f(void) {}\n', 'int x;\nvoid f(void);\nvoid g(void) { /* stub */ }\n', 2],
  [
    'cpp',
    'class A {\n public:\n  void m() {}\n};\n',
    'class A {\n public:\n  A() {}\n  ~A() {}\n  void m() { /* later */ }\n};\n',
    3,
  ],
  [
    'csharp',
    'class A {\n  void M() {}\n}\n',
    'class A {\n  A() {}\n  void M() => G();\n  int P { get; set; }\n}\n',
    2,
  ],
  ['ruby', 'x = 1\ndef f\nend\n', 'def initialize\nend\ndef g\n  # hook\nend\ndef h = 1\n', 2],
  [
    'php',
    '<?php\nclass A {\n  function m() {}\n}\n',
    '<?php\nclass A {\n  function __construct() {}\n  function m() { return 1; }\n}\n',
    3,
  ],
  [
    'kotlin',
    'class A {\n  fun m() {}\n}\n',
    'interface I {\n  fun d() {}\n}\nclass A {\n  fun m() {\n    // hook\n  }\n  fun n(): Int = 1\n}\n',
    2,
  ],
]);

const TWO = { methods: 2 };
const JS_CLASS: Case = [
  'typescript',
  'const x = 1;\nclass A {\n  a() {}\n  b() {}\n  c() {}\n}\n',
  'class A {\n  a() {\n    function local() {}\n    function other() {}\n  }\n  b() {}\n}\n',
  2,
];
suite(
  'too-many-methods',
  [
    JS_CLASS,
    ['tsx', JS_CLASS[1], JS_CLASS[2], 2],
    [
      'javascript',
      'const A = class {\n  a() {}\n  b() {}\n  c() {}\n};\n',
      'class A {\n  a() {}\n  b() {}\n}\n',
      1,
    ],
    [
      'python',
      'class A:\n    def a(self): pass\n    def b(self): pass\n    def c(self): pass\n',
      'class A:\n    def a(self): pass\n    class B:\n        def b(self): pass\n        def c(self): pass\n',
      1,
    ],
    [
      'go',
      'package m\n\nfunc (s *S) A() {}\nfunc (s *S) B() {}\nfunc (s S) C() {}\n',
      'package m\n\nfunc (s *S) A() {}\nfunc (s *S) B() {}\nfunc (t *T) C() {}\n',
      3,
    ],
    [
      'rust',
      'struct S;\nimpl S {\n    fn a(&self) {}\n    fn b(&self) {}\n    fn c(&self) {}\n}\n',
      'struct S;\nimpl S {\n    fn a(&self) {}\n    fn b(&self) {}\n}\nimpl T for S {\n    fn c(&self) {}\n}\n',
      2,
    ],
    [
      'java',
      'class A {\n  void a() {}\n  void b() {}\n  void c() {}\n}\n',
      'class A {\n  void a() {}\n  void b() {}\n}\n',
      1,
    ],
    [
      'cpp',
      'class A {\n  void a();\n  void b();\n  void c() {}\n};\n',
      'class A {\n  int x;\n  void a();\n  void b() {}\n};\n',
      1,
    ],
    [
      'csharp',
      'class A {\n  void M1() {}\n  void M2() {}\n  void M3() {}\n}\n',
      'class A {\n  void M1() {}\n  void M2() {}\n}\n',
      1,
    ],
    [
      'ruby',
      'class A\n  def a; end\n  def b; end\n  def self.c; end\nend\n',
      'class A\n  def a; end\n  def b; end\nend\n',
      1,
    ],
    [
      'php',
      '<?php\nclass A {\n  function a() {}\n  function b() {}\n  function c() {}\n}\n',
      '<?php\nclass A {\n  function a() {}\n  function b() {}\n}\n',
      2,
    ],
    [
      'kotlin',
      'class A {\n  fun a() {}\n  fun b() {}\n  fun c() {}\n}\n',
      'object A {\n  fun a() {}\n  fun b() {}\n}\n',
      1,
    ],
  ],
  TWO,
);

describe('too-many-methods', () => {
  it('names the class, the count and the limit; the default is 20', async () => {
    const methods = Array.from({ length: 21 }, (_, i) => `  m${i}() {}`).join('\n');
    const findings = await run('too-many-methods', 'typescript', `class Big {\n${methods}\n}\n`);
    expect(findings.map((f) => f.message)).toEqual(['Big has 21 methods (over 20)']);
  });
});
