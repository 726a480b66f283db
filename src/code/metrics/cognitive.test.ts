// Tests of cognitive and cyclomatic complexity rule by rule, starting from the SonarSource
// paper's own examples; every expectation carries its hand count.
import { describe, expect, it } from 'vitest';

import { fn } from './test-helpers.js';

// Hand counts follow G. Ann Campbell, "Cognitive Complexity" (SonarSource, 2018/2023):
// structural increments +1 plus the nesting level, else-if/else +1 flat, each run of like
// logical operators +1, labelled jumps and goto +1, direct recursion +1, and nested
// functions/lambdas raise the nesting level without an increment of their own.

const SUM_OF_PRIMES = `class P {
  int sumOfPrimes(int max) {
    int total = 0;
    OUT: for (int i = 1; i <= max; ++i) {
      for (int j = 2; j < i; ++j) {
        if (i % j == 0) {
          continue OUT;
        }
      }
      total += i;
    }
    return total;
  }
}`;

const GET_WORDS = `class W {
  String getWords(int number) {
    switch (number) {
      case 1:
        return "one";
      case 2:
        return "a couple";
      case 3:
        return "a few";
      default:
        return "lots";
    }
  }
}`;

describe('cognitive complexity: the paper’s own examples (Java)', () => {
  it('sumOfPrimes is 7 (cyclomatic 4)', async () => {
    const m = await fn('java', SUM_OF_PRIMES, 'sumOfPrimes');
    // for +1 (nesting 0), inner for +2 (nesting 1), if +3 (nesting 2), continue OUT +1 = 7
    expect(m.cognitive).toBe(7);
    // 1 + for + for + if = 4
    expect(m.cyclomatic).toBe(4);
    expect(m.maxNesting).toBe(3);
  });

  it('getWords is 1 (cyclomatic 4)', async () => {
    const m = await fn('java', GET_WORDS, 'getWords');
    // switch +1; cases add nothing in cognitive
    expect(m.cognitive).toBe(1);
    // 1 + case 1 + case 2 + case 3 (default adds no path) = 4
    expect(m.cyclomatic).toBe(4);
  });
});

describe('cognitive complexity: single rules (TypeScript)', () => {
  it('counts a sequence of like logical operators once: a && b && c || d = +2', async () => {
    const m = await fn('typescript', 'function g(a, b, c, d) { return a && b && c || d; }', 'g');
    expect(m.cognitive).toBe(2); // run "&& &&" +1, run "||" +1
    expect(m.cyclomatic).toBe(4); // 1 + && + && + ||
  });

  it('counts every change of operator: a && b || c && d = +3, a || b && c || d = +3', async () => {
    const src = 'function g(a, b, c, d) { const x = a && b || c && d; return a || b && c || d; }';
    const m = await fn('typescript', src, 'g');
    expect(m.cognitive).toBe(6); // && || && (+3), || && || (+3)
  });

  it('sees through parentheses: a && (b && c) is one run', async () => {
    const m = await fn('typescript', 'function g(a, b, c) { return a && (b && c); }', 'g');
    expect(m.cognitive).toBe(1); // one run of &&
    expect(m.cyclomatic).toBe(3); // 1 + two &&
  });

  it('adds the nesting level to nested structures', async () => {
    const src = `function g(a, b, c) {
      if (a) {            // +1 (nesting 0)
        while (b) {       // +2 (nesting 1)
          if (c) { }      // +3 (nesting 2)
        }
      }
    }`;
    const m = await fn('typescript', src, 'g');
    expect(m.cognitive).toBe(6);
    expect(m.cyclomatic).toBe(4); // 1 + if + while + if
    expect(m.maxNesting).toBe(3);
  });

  it('gives else-if and else a flat +1, however deep the chain', async () => {
    const src = `function g(a, b, c) {
      for (;;) {                  // +1
        if (a) { }                // +2 (nesting 1)
        else if (b) { }           // +1 (no nesting increment)
        else if (c) { }           // +1
        else { }                  // +1
      }
    }`;
    const m = await fn('typescript', src, 'g');
    expect(m.cognitive).toBe(6);
    expect(m.cyclomatic).toBe(5); // 1 + for + if + else-if + else-if (else adds no path)
  });

  it('counts direct recursion once per call', async () => {
    const src = 'function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }';
    const m = await fn('typescript', src, 'fact');
    expect(m.cognitive).toBe(2); // ternary +1, recursive call +1
    expect(m.cyclomatic).toBe(2); // 1 + ternary
  });

  it('nests the body of a lambda one level deeper, without an increment of its own', async () => {
    const src = `function g(xs) {
      return xs.map((x) => {      // lambda: nesting 0 → 1
        if (x) { return 1; }      // +2 (nesting 1)
        return 0;
      });
    }`;
    const m = await fn('typescript', src, 'g');
    expect(m.cognitive).toBe(2);
    expect(m.cyclomatic).toBe(2); // 1 + if
    expect(m.maxNesting).toBe(2); // lambda 1, if body 2
  });

  it('reports a top-level arrow function by the name it is bound to', async () => {
    const m = await fn('typescript', 'export const pick = (a, b) => (a ? a : b);', 'pick');
    expect(m.kind).toBe('arrow_function');
    expect(m.cognitive).toBe(1); // ternary +1 at nesting 0
    expect(m.parameters).toBe(2);
  });

  it('counts catch, not try, and ?? only in cyclomatic', async () => {
    const src = 'function g(a) { try { return a ?? 1; } catch (e) { return 0; } finally { } }';
    const m = await fn('typescript', src, 'g');
    expect(m.cognitive).toBe(1); // catch +1; ?? is no logical-operator sequence
    expect(m.cyclomatic).toBe(3); // 1 + ?? + catch
  });
});
