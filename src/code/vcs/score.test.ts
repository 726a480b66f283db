// The impact score's formula on hand-computed inputs, and the public-symbol and test-path rules.
import { describe, expect, it } from 'vitest';

import { isPublic, isTestPath, scoreImpact } from './score.js';
import type { SymbolChange } from './types.js';

const NONE = {
  direct: 0,
  transitive: 0,
  directCount: 0,
  transitiveCount: 0,
  files: 0,
  breaking: 0,
  breakingReferenced: 0,
  symbolsChanged: 0,
  unparsedLines: 0,
  testsChanged: false,
  testDependents: 0,
};

describe('scoreImpact', () => {
  it('scores nothing for a change without declarations, dependents or lines', () => {
    const { score, level, reasons } = scoreImpact(NONE);
    expect(score).toBe(0);
    expect(level).toBe('low');
    expect(reasons.find((r) => r.factor === 'tests')?.detail).toBe('no declarations changed');
  });

  it('adds the factors: 8 direct dependents give half the dependents points', () => {
    const { reasons, score } = scoreImpact({
      ...NONE,
      direct: 8,
      directCount: 8,
      files: 5,
      symbolsChanged: 10,
      testsChanged: true,
    });
    expect(reasons.map((r) => r.points)).toEqual([17.5, 7.5, 0, 7.5, 0]);
    expect(score).toBe(33);
  });

  it('never lets line counts alone reach more than the size factor', () => {
    const { score, reasons } = scoreImpact({ ...NONE, unparsedLines: 1_000_000 });
    expect(reasons.find((r) => r.factor === 'size')?.points).toBeLessThanOrEqual(15);
    expect(score).toBeLessThanOrEqual(15);
  });

  it('weighs missing tests: 10 with no test near, 5 when tests depend, 0 when tests changed', () => {
    const tests = (extra: Partial<typeof NONE>) =>
      scoreImpact({ ...NONE, symbolsChanged: 1, ...extra }).reasons.find(
        (r) => r.factor === 'tests',
      )?.points;
    expect(tests({})).toBe(10);
    expect(tests({ testDependents: 2 })).toBe(5);
    expect(tests({ testsChanged: true, testDependents: 2 })).toBe(0);
  });
});

const change = (path: string, symbol: string, signature: string, container: string | null = null) =>
  ({ path, symbol, name: symbol.split('.').pop() ?? symbol, container, signature }) as SymbolChange;

describe('isPublic', () => {
  it.each([
    [change('a.ts', 'f', 'export function f()'), true],
    [change('a.ts', 'f', 'function f()'), false],
    [change('a.ts', 'C.m', 'private m()', 'C'), false],
    [change('a.ts', 'C.m', 'm()', 'C'), true],
    [change('a.py', '_f', 'def _f()'), false],
    [change('a.py', '__init__', 'def __init__(self)', 'C'), true],
    [change('a.go', 'Run', 'func Run()'), true],
    [change('a.go', 'run', 'func run()'), false],
    [change('a.rs', 'f', 'pub fn f()'), true],
    [change('a.rs', 'f', 'fn f()'), false],
    [change('A.java', 'A.f', 'public void f()', 'A'), true],
    [change('A.java', 'A.f', 'void f()', 'A'), false],
    [change('a.c', 'f', 'static int f(void)'), false],
    [change('a.kt', 'f', 'internal fun f()'), false],
  ])('%o → %s', (c, expected) => {
    expect(isPublic(c)).toBe(expected);
  });
});

describe('isTestPath', () => {
  it.each([
    ['src/a.test.ts', true],
    ['tests/helpers.py', true],
    ['pkg/test_a.py', true],
    ['pkg/a_test.go', true],
    ['src/FooTest.java', true],
    ['spec/a_spec.rb', true],
    ['src/contest.ts', false],
    ['src/latest/a.ts', false],
  ])('%s → %s', (path, expected) => {
    expect(isTestPath(path)).toBe(expected);
  });
});
