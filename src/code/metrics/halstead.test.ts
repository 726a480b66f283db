// Tests of the Halstead counts (by hand, on tiny samples) and the maintainability index formula.
import { describe, expect, it } from 'vitest';

import { halsteadFromCounts, maintainabilityIndex } from './halstead.js';
import { analyze, fn } from './test-helpers.js';

describe('Halstead measures', () => {
  it('counts a tiny TypeScript function by hand', async () => {
    const m = await fn('typescript', 'function add(a, b) { return a + b; }', 'add');
    // Operators (anonymous tokens; a bracket pair counts once, by its opener):
    //   function ( , { return + ;          → n1 = 7 distinct, N1 = 7 in all
    // Operands (named leaves): add a b a b → n2 = 3 distinct, N2 = 5 in all
    expect(m.halstead).toMatchObject({
      distinctOperators: 7,
      totalOperators: 7,
      distinctOperands: 3,
      totalOperands: 5,
      vocabulary: 10, // 7 + 3
      length: 12, // 7 + 5
    });
    expect(m.halstead.volume).toBeCloseTo(12 * Math.log2(10), 9); // 39.863
    expect(m.halstead.difficulty).toBeCloseTo((7 / 2) * (5 / 3), 9); // 5.833
    expect(m.halstead.effort).toBeCloseTo(12 * Math.log2(10) * (35 / 6), 9); // 232.53
  });

  it('counts a Python function and a whole string literal as one operand', async () => {
    const src = 'def greet(name):\n    return "hi " + name\n';
    const m = await fn('python', src, 'greet');
    // Operators: def ( : return +         → n1 = 5, N1 = 5
    // Operands: greet name "hi " name     → n2 = 3, N2 = 4
    expect(m.halstead).toMatchObject({
      distinctOperators: 5,
      totalOperators: 5,
      distinctOperands: 3,
      totalOperands: 4,
    });
  });

  it('leaves comments out of the count', async () => {
    const plain = await fn('go', 'package p\nfunc f() int { return 1 }\n', 'f');
    const commented = await fn(
      'go',
      'package p\nfunc f() int { /* x + y */ return 1 // z\n}\n',
      'f',
    );
    expect(commented.halstead).toEqual(plain.halstead);
  });

  it('derives the measures from the four counts, with empty cases at zero', () => {
    const h = halsteadFromCounts(4, 4, 8, 8);
    expect(h.volume).toBe(48); // 16 · log2(8)
    expect(h.difficulty).toBe(4); // 4/2 · 8/4
    expect(h.effort).toBe(192);
    expect(halsteadFromCounts(1, 0, 3, 0)).toMatchObject({ volume: 0, difficulty: 0, effort: 0 });
  });
});

describe('maintainability index', () => {
  it('follows MI = max(0, (171 − 5.2 ln V − 0.23 G − 16.2 ln SLOC) · 100 / 171)', () => {
    // V = 1000, G = 10, SLOC = 50: 171 − 35.920 − 2.3 − 63.374 = 69.406 → 40.588
    expect(maintainabilityIndex(1000, 10, 50)).toBeCloseTo(40.588, 2);
    // V = 1, G = 1, SLOC = 1: (171 − 0.23) · 100 / 171 = 99.865
    expect(maintainabilityIndex(1, 1, 1)).toBeCloseTo(99.865, 2);
    // Huge code floors at 0, and an empty one (V = 0, SLOC = 0) does not take ln 0.
    expect(maintainabilityIndex(1e30, 500, 1e9)).toBe(0);
    expect(maintainabilityIndex(0, 1, 0)).toBeCloseTo(99.865, 2);
  });

  it('is computed from the function’s own volume, cyclomatic and SLOC', async () => {
    const file = await analyze(
      'typescript',
      'function f(a) {\n  if (a) {\n    return 1;\n  }\n  return 2;\n}\n',
    );
    const f = file.functions[0];
    expect(f).toBeDefined();
    if (f === undefined) return;
    expect(f.maintainability).toBe(maintainabilityIndex(f.halstead.volume, f.cyclomatic, f.sloc));
    expect(f.sloc).toBe(6);
    expect(f.cyclomatic).toBe(2);
  });
});
