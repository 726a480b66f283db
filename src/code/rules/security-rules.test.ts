// The call-pattern security rules in every language they claim: eval and its kin, and weak
// hashes, each with a reported sample and a near miss (a method of the same name, a strong
// algorithm, an explicit not-for-security flag).
import { describe, expect, it } from 'vitest';

import { type Case, run, suite } from '../../../test/code/rule-cases.js';

const JS_EVAL: Case = [
  'typescript',
  'const a = 1;\nconst f = new Function("a", body);\n',
  'const a = 1;\nconst v = model.eval(x);\nsetTimeout(() => g(), 10);\n',
  2,
];
suite('eval-usage', [
  JS_EVAL,
  ['tsx', JS_EVAL[1], JS_EVAL[2], 2],
  ['javascript', 'g();\neval(code);\n', 'g();\nconst r = /x/.exec(code);\n', 2],
  ['python', 'x = 1\nexec(source)\n', 'x = 1\nmodel.eval()\nast.literal_eval(text)\n', 2],
  ['php', '<?php\n$x = 1;\neval($code);\n', '<?php\n$x = 1;\n$engine->eval($code);\n', 3],
  [
    'ruby',
    'x = 1\nklass.class_eval("def #{name}; end")\n',
    'x = 1\nklass.class_eval { define_method(name) { 1 } }\nmath.eval(x)\n',
    2,
  ],
]);

describe('eval-usage', () => {
  it('a string passed to setTimeout is evaluated, a function is not', async () => {
    const text = 'setTimeout("tick()", 10);\nsetTimeout(tick, 10);\nwindow.eval(s);\n';
    const findings = await run('eval-usage', 'javascript', text);
    expect(findings.map((f) => [f.line, f.message])).toEqual([
      [1, 'setTimeout with a string runs code built from a string'],
      [3, 'eval runs code built from a string'],
    ]);
  });
});

const JS_HASH: Case = [
  'typescript',
  "import { createHash } from 'node:crypto';\nconst h = createHash('md5');\n",
  "import { createHash } from 'node:crypto';\nconst h = createHash('sha256');\n",
  2,
];
suite('weak-hash', [
  JS_HASH,
  ['tsx', JS_HASH[1], JS_HASH[2], 2],
  [
    'javascript',
    "const c = require('crypto');\nc.createHash('SHA1');\n",
    "c.createHmac('sha1', k);\n",
    2,
  ],
  [
    'python',
    'import hashlib\nh = hashlib.md5(data)\n',
    'import hashlib\nh = hashlib.md5(data, usedforsecurity=False)\nk = hashlib.sha256(data)\n',
    2,
  ],
  [
    'java',
    'class A { void f() {\n  MessageDigest.getInstance("SHA-1");\n} }\n',
    'class A { void f() {\n  MessageDigest.getInstance("SHA-256");\n} }\n',
    2,
  ],
  [
    'kotlin',
    'fun f() {\n  val d = MessageDigest.getInstance("MD5")\n}\n',
    'fun f() {\n  val d = MessageDigest.getInstance("SHA-512")\n}\n',
    2,
  ],
  [
    'go',
    'package m\nfunc f() {\n\tsum := md5.Sum(b)\n}\n',
    'package m\nfunc f() {\n\tsum := sha256.Sum256(b)\n}\n',
    3,
  ],
  [
    'php',
    "<?php\n$a = 1;\n$h = hash('md5', $x);\n",
    "<?php\n$a = 1;\n$h = hash('sha256', $x);\n",
    3,
  ],
  [
    'csharp',
    'class A { void F() {\n  var h = SHA1.Create();\n} }\n',
    'class A { void F() {\n  var h = SHA256.Create();\n} }\n',
    2,
  ],
  ['ruby', 'x = 1\nDigest::MD5.hexdigest(s)\n', 'x = 1\nDigest::SHA256.hexdigest(s)\n', 2],
  [
    'rust',
    'fn f() {\n    let d = md5::compute(b);\n}\n',
    'fn f() {\n    let d = Sha256::new();\n}\n',
    2,
  ],
]);

describe('weak-hash', () => {
  it('names the algorithm, and sees constructors and hashlib.new', async () => {
    const cs = 'class A { void F() {\n var a = new MD5CryptoServiceProvider();\n} }\n';
    expect((await run('weak-hash', 'csharp', cs)).map((f) => f.message)).toEqual([
      'weak hash (MD5CryptoServiceProvider): use SHA-256 or better',
    ]);
    const py = 'hashlib.new("sha1")\nhashlib.new("sha256")\n';
    expect((await run('weak-hash', 'python', py)).map((f) => f.line)).toEqual([1]);
    const php = '<?php\n$a = md5($x);\n$b = sha1_file($p);\n';
    expect((await run('weak-hash', 'php', php)).map((f) => f.line)).toEqual([2, 3]);
  });
});
