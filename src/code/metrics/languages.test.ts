// Tests of cyclomatic and cognitive complexity on hand-counted samples in every grammar the
// node table covers (walk, getWords, nested branches, sumOfPrimes).
import { describe, expect, it } from 'vitest';

import type { CodeLanguage } from '../languages.js';
import { fn } from './test-helpers.js';

// One "walk" function per language, hand-counted line by line (cog = cognitive, cc = the
// decision points McCabe adds to the base 1). Each has nesting, an else-if chain with an else,
// a mixed logical condition, direct recursion and a lambda holding a branch.

const WALK: Record<string, string> = {
  typescript: `function walk(node, depth) {
  if (node === null) return 0;                        // cog +1 (nesting 0)     cc +1
  for (const child of node.children) {                // cog +1                 cc +1
    if (child.a && child.b && child.c || child.d) {   // cog +2 (nesting 1) +2  cc +1 +3
      continue;
    } else if (child.e) {                             // cog +1                 cc +1
      walk(child, depth + 1);                         // cog +1 (recursion)
    } else {                                          // cog +1
      const f = (x) => (x ? 1 : 2);                   // lambda → nesting 3; ternary cog +4, cc +1
    }
  }
  return depth;
}`,
  python: `def walk(node, depth):
    if node is None:                        # cog +1                  cc +1
        return 0
    for child in node.children:             # cog +1                  cc +1
        if child.a and child.b or child.c:  # cog +2 (nesting 1) +2   cc +1 +2
            continue
        elif child.e:                       # cog +1                  cc +1
            walk(child, depth + 1)          # cog +1 (recursion)
        else:                               # cog +1
            f = lambda x: 1 if x else 2     # lambda → nesting 3; conditional cog +4, cc +1
    return depth
`,
  go: `package p
func walk(n *Node, depth int) int {
	if n == nil {                 // cog +1                  cc +1
		return 0
	}
	for _, c := range n.children { // cog +1                 cc +1
		if c.a && c.b || c.c {     // cog +2 (nesting 1) +2  cc +1 +2
			continue
		} else if c.e {            // cog +1                 cc +1
			walk(c, depth+1)       // cog +1 (recursion)
		} else {                   // cog +1
			f := func(x int) int { // lambda → nesting 3
				switch x {         // cog +4
				case 1:            // cc +1
					return 1
				default:           // default: no path
					return 2
				}
			}
			_ = f
		}
	}
	return depth
}
`,
  rust: `fn walk(n: &Node, depth: u32) -> u32 {
    if n.leaf { return 0; }           // cog +1                  cc +1
    for c in &n.children {            // cog +1                  cc +1
        if c.a && c.b || c.c {        // cog +2 (nesting 1) +2   cc +1 +2
            continue;
        } else if c.e {               // cog +1                  cc +1
            walk(c, depth + 1);       // cog +1 (recursion)
        } else {                      // cog +1
            let f = |x: u32| match x { // closure → nesting 3; match cog +4
                1 => 1,               // cc +1
                _ => 2,               // default arm: no path
            };
            f(1);
        }
    }
    depth
}
`,
  java: `class N {
  int walk(Node n, int depth) {
    if (n == null) return 0;                   // cog +1                  cc +1
    for (Node c : n.children) {                // cog +1                  cc +1
      if (c.a && c.b || c.c) {                 // cog +2 (nesting 1) +2   cc +1 +2
        continue;
      } else if (c.e) {                        // cog +1                  cc +1
        walk(c, depth + 1);                    // cog +1 (recursion)
      } else {                                 // cog +1
        IntUnaryOperator f = x -> x > 0 ? 1 : 2; // lambda → nesting 3; ternary cog +4, cc +1
      }
    }
    return depth;
  }
}`,
};

describe('cyclomatic and cognitive complexity per language', () => {
  const expected: Record<string, { cognitive: number; cyclomatic: number }> = {
    // 1+1+2+2+1+1+1+4 = 13; 1 + 1+1+1+3+1+1 = 9
    typescript: { cognitive: 13, cyclomatic: 9 },
    // 1+1+2+2+1+1+1+4 = 13; 1 + 1+1+1+2+1+1 = 8 (the others below alike)
    python: { cognitive: 13, cyclomatic: 8 },
    go: { cognitive: 13, cyclomatic: 8 },
    rust: { cognitive: 13, cyclomatic: 8 },
    java: { cognitive: 13, cyclomatic: 8 },
  };
  for (const [language, src] of Object.entries(WALK)) {
    it(`walk in ${language}`, async () => {
      const m = await fn(language as CodeLanguage, src, 'walk');
      expect({ cognitive: m.cognitive, cyclomatic: m.cyclomatic }).toEqual(expected[language]);
      expect(m.parameters).toBe(2);
    });
  }
});

// getWords (switch + three cases + default: cognitive 1, cyclomatic 4) in the other grammars.
const GET_WORDS: [CodeLanguage, string, string][] = [
  [
    'javascript',
    'function getWords(n) { switch (n) { case 1: return "one"; case 2: return "a couple"; case 3: return "a few"; default: return "lots"; } }',
    'getWords',
  ],
  [
    'tsx',
    'function getWords(n: number) { switch (n) { case 1: return <b/>; case 2: return 2; case 3: return 3; default: return 4; } }',
    'getWords',
  ],
  [
    'c',
    'const char *get_words(int n) { switch (n) { case 1: return "one"; case 2: return "a couple"; case 3: return "a few"; default: return "lots"; } }',
    'get_words',
  ],
  [
    'cpp',
    'std::string W::getWords(int n) { switch (n) { case 1: return "one"; case 2: return "two"; case 3: return "few"; default: return "lots"; } }',
    'W::getWords',
  ],
  [
    'csharp',
    'class W { string GetWords(int n) { switch (n) { case 1: return "one"; case 2: return "two"; case 3: return "few"; default: return "lots"; } } }',
    'GetWords',
  ],
  [
    'ruby',
    'def get_words(n)\n  case n\n  when 1 then "one"\n  when 2 then "a couple"\n  when 3 then "a few"\n  else "lots"\n  end\nend\n',
    'get_words',
  ],
  [
    'php',
    '<?php function getWords($n) { switch ($n) { case 1: return "one"; case 2: return "two"; case 3: return "few"; default: return "lots"; } }',
    'getWords',
  ],
  [
    'kotlin',
    'fun getWords(n: Int): String {\n  return when (n) {\n    1 -> "one"\n    2 -> "a couple"\n    3 -> "a few"\n    else -> "lots"\n  }\n}\n',
    'getWords',
  ],
  [
    'python',
    'def get_words(n):\n    match n:\n        case 1:\n            return "one"\n        case 2:\n            return "a couple"\n        case 3:\n            return "a few"\n        case _:\n            return "lots"\n',
    'get_words',
  ],
  [
    'rust',
    'fn get_words(n: i32) -> &str { match n { 1 => "one", 2 => "a couple", 3 => "a few", _ => "lots" } }',
    'get_words',
  ],
  [
    'go',
    'package p\nfunc getWords(n int) string {\n\tswitch n {\n\tcase 1:\n\t\treturn "one"\n\tcase 2:\n\t\treturn "two"\n\tcase 3:\n\t\treturn "few"\n\tdefault:\n\t\treturn "lots"\n\t}\n}\n',
    'getWords',
  ],
];

describe('getWords in every grammar: one switch, three cases and a default', () => {
  for (const [language, src, name] of GET_WORDS) {
    it(language, async () => {
      const m = await fn(language, src, name);
      expect({ cognitive: m.cognitive, cyclomatic: m.cyclomatic }).toEqual({
        cognitive: 1,
        cyclomatic: 4,
      });
    });
  }
});

// Nested branches with an else-if, an else, a mixed condition and recursion, in the grammars
// the walk samples do not cover. Hand count, the same in each:
//   loop +1 (cc +1); if +2 at nesting 1 (cc +1); "a && b || c" +2 (cc +2);
//   else-if +1 (cc +1); else +1; recursive call +1  →  cognitive 8, cyclomatic 6.
const NESTED: [CodeLanguage, string, string][] = [
  [
    'c',
    'int f(int n, int a, int b, int c) {\n  while (n) {\n    if (a && b || c) { n--; }\n    else if (b) { f(n, a, b, c); }\n    else { n = 0; }\n  }\n  return n;\n}\n',
    'f',
  ],
  [
    'cpp',
    'int f(int n, int a, int b, int c) {\n  for (auto x : xs) {\n    if (a && b || c) { n--; }\n    else if (b) { f(n, a, b, c); }\n    else { n = 0; }\n  }\n  return n;\n}\n',
    'f',
  ],
  [
    'csharp',
    'class C { int F(int n, bool a, bool b, bool c) {\n  foreach (var x in xs) {\n    if (a && b || c) { n--; }\n    else if (b) { F(n, a, b, c); }\n    else { n = 0; }\n  }\n  return n;\n} }\n',
    'F',
  ],
  [
    'ruby',
    'def f(n, a, b, c)\n  while n > 0\n    if a && b || c\n      n -= 1\n    elsif b\n      f(n, a, b, c)\n    else\n      n = 0\n    end\n  end\n  n\nend\n',
    'f',
  ],
  [
    'php',
    '<?php function f($n, $a, $b, $c) {\n  foreach ($xs as $x) {\n    if ($a && $b || $c) { $n--; }\n    elseif ($b) { f($n, $a, $b, $c); }\n    else { $n = 0; }\n  }\n  return $n;\n}\n',
    'f',
  ],
  [
    'kotlin',
    'fun f(n: Int, a: Boolean, b: Boolean, c: Boolean): Int {\n  for (x in xs) {\n    if (a && b || c) { g() }\n    else if (b) { f(n, a, b, c) }\n    else { g() }\n  }\n  return n\n}\n',
    'f',
  ],
  [
    'javascript',
    'function f(n, a, b, c) {\n  do {\n    if (a && b || c) { n--; }\n    else if (b) { f(n, a, b, c); }\n    else { n = 0; }\n  } while (n);\n  return n;\n}\n',
    'f',
  ],
];

describe('nesting, else-if, else, logical runs and recursion in the other grammars', () => {
  for (const [language, src, name] of NESTED) {
    it(language, async () => {
      const m = await fn(language, src, name);
      expect({
        cognitive: m.cognitive,
        cyclomatic: m.cyclomatic,
        parameters: m.parameters,
      }).toEqual({
        cognitive: 8,
        cyclomatic: 6,
        parameters: 4,
      });
    });
  }
});

// sumOfPrimes (the paper's first example) wherever a loop can be continued by label:
// outer loop +1, inner loop +2, if +3, labelled continue +1 = 7; cyclomatic 1 + 3 = 4.
const SUM_OF_PRIMES: [CodeLanguage, string][] = [
  [
    'typescript',
    'function sumOfPrimes(max: number) {\n  let total = 0;\n  OUT: for (let i = 1; i <= max; ++i) {\n    for (let j = 2; j < i; ++j) {\n      if (i % j === 0) {\n        continue OUT;\n      }\n    }\n    total += i;\n  }\n  return total;\n}\n',
  ],
  [
    'go',
    'package p\nfunc sumOfPrimes(max int) int {\n\ttotal := 0\nOUT:\n\tfor i := 1; i <= max; i++ {\n\t\tfor j := 2; j < i; j++ {\n\t\t\tif i%j == 0 {\n\t\t\t\tcontinue OUT\n\t\t\t}\n\t\t}\n\t\ttotal += i\n\t}\n\treturn total\n}\n',
  ],
  [
    'rust',
    "fn sumOfPrimes(max: u32) -> u32 {\n    let mut total = 0;\n    'out: for i in 1..=max {\n        for j in 2..i {\n            if i % j == 0 {\n                continue 'out;\n            }\n        }\n        total += i;\n    }\n    total\n}\n",
  ],
  [
    'kotlin',
    'fun sumOfPrimes(max: Int): Int {\n    var total = 0\n    out@ for (i in 1..max) {\n        for (j in 2 until i) {\n            if (i % j == 0) {\n                continue@out\n            }\n        }\n        total += i\n    }\n    return total\n}\n',
  ],
  [
    'c',
    'int sumOfPrimes(int max) {\n  int total = 0;\n  for (int i = 1; i <= max; ++i) {\n    for (int j = 2; j < i; ++j) {\n      if (i % j == 0) {\n        goto next;\n      }\n    }\n    total += i;\n  next:;\n  }\n  return total;\n}\n',
  ],
];

describe('sumOfPrimes with a labelled jump in other grammars', () => {
  for (const [language, src] of SUM_OF_PRIMES) {
    it(language, async () => {
      const m = await fn(language, src, 'sumOfPrimes');
      expect({ cognitive: m.cognitive, cyclomatic: m.cyclomatic }).toEqual({
        cognitive: 7,
        cyclomatic: 4,
      });
    });
  }

  it('adds nothing for an unlabelled continue (Python)', async () => {
    const src =
      'def sum_of_primes(mx):\n    total = 0\n    for i in range(1, mx + 1):\n        for j in range(2, i):\n            if i % j == 0:\n                continue\n        total += i\n    return total\n';
    const m = await fn('python', src, 'sum_of_primes');
    expect({ cognitive: m.cognitive, cyclomatic: m.cyclomatic }).toEqual({
      cognitive: 6,
      cyclomatic: 4,
    });
  });
});
