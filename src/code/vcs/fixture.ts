// The known change the compare and impact tests share: a base branch `main`, a `feature`
// branch forked from it with TS and Python edits of every kind (body changed, signature
// changed, added, removed, a renamed file, a binary file), and a later main-only commit.
// Test-only (imported by *.test.ts).
import { createTestRepo, type TestRepo } from './test-repo.js';

export const MATH_BASE = `export function add(a: number, b: number): number {
  return a + b;
}

export function sub(a: number, b: number): number {
  return a - b;
}

export function mul(a: number, b: number): number {
  return a * b;
}

export class Calc {
  total = 0;
  push(n: number): void {
    this.total += n;
  }
}
`;

export const MATH_TARGET = `export function add(a: number, b: number): number {
  return b + a;
}

export function mul(a: number, b: number, c = 1): number {
  return a * b * c;
}

export class Calc {
  total = 0;
  push(n: number): void {
    this.total += n;
  }
}

export function div(a: number, b: number): number {
  return a / b;
}
`;

export const UTIL_BASE = `def greet(name):
    return "hi " + name


def old_helper(x):
    return x * 2


def scale(x, k):
    return x * k
`;

export const UTIL_TARGET = `def greet(name):
    return "hello " + name


def scale(x, k, offset=0):
    return x * k + offset


def shout(name):
    return name.upper()
`;

const NAMES = (countBody: string) => `export function first(list: string[]): string {
  return list[0] ?? '';
}

export function last(list: string[]): string {
  return list[list.length - 1] ?? '';
}

export function count(list: string[]): number {
  return ${countBody};
}
`;

/** Builds the repository; `feature` is checked out at the end, `main` is one commit ahead. */
export function createFixtureRepo(): TestRepo & { fork: string } {
  const repo = createTestRepo();
  repo.write('README.md', '# r\n');
  repo.write('src/math.ts', MATH_BASE);
  repo.write('src/util.py', UTIL_BASE);
  repo.write('src/legacy/names.ts', NAMES('list.length'));
  repo.write('src/gone.ts', 'export function gone(): void {}\n');
  repo.write('assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  const fork = repo.commit('base');
  repo.git('checkout', '-qb', 'feature');
  repo.write('README.md', '# r\n\nmore\n');
  repo.write('src/math.ts', MATH_TARGET);
  repo.write('src/util.py', UTIL_TARGET);
  repo.remove('src/legacy/names.ts');
  repo.write('src/names.ts', NAMES('list.filter(Boolean).length'));
  repo.remove('src/gone.ts');
  repo.write('src/new.py', 'def fresh():\n    return 1\n');
  repo.write('assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9]));
  repo.commit('feature');
  repo.git('checkout', '-q', 'main');
  repo.write('src/mainonly.ts', 'export function onlyMain(): number {\n  return 1;\n}\n');
  repo.commit('main moves on');
  repo.git('checkout', '-q', 'feature');
  return Object.assign(repo, { fork });
}
