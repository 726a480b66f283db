// compare_branches on a repository built in the test with known changes: files with exact
// line counts (rename, binary, added, removed), the declarations added / removed / changed
// from both sides' syntax trees, the merge-base form, defaults, and refused input.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { InvalidInputError } from '../../shared/index.js';
import { compareBranches } from './compare.js';
import { listChangedFiles } from './diff-files.js';
import { createFixtureRepo } from './fixture.js';
import { createTestRepo, type TestRepo } from './test-repo.js';

let repo: TestRepo & { fork: string };

beforeAll(() => {
  repo = createFixtureRepo();
});

afterAll(() => repo.cleanup());

const compare = (extra: Record<string, unknown> = {}) =>
  compareBranches({ repoPath: repo.dir, baseBranch: 'main', targetBranch: 'feature', ...extra });

describe('compareBranches: files', () => {
  it('lists what the branch changes since the merge base, with exact line counts', async () => {
    const result = await compare();
    expect(result.comparison).toBe('merge-base');
    expect(result.from).toBe(repo.fork);
    expect(result.base).toMatchObject({ ref: 'main', defaulted: false });
    expect(result.target.commit).toBe(repo.git('rev-parse', 'feature').trim());
    const rows = result.files.map((f) => [
      f.path,
      f.previousPath,
      f.status,
      f.linesAdded,
      f.linesRemoved,
      f.binary,
      f.symbolDiff,
    ]);
    expect(rows).toEqual([
      ['README.md', null, 'modified', 2, 0, false, 'no_grammar'],
      ['assets/logo.png', null, 'modified', null, null, true, 'binary'],
      ['src/gone.ts', null, 'removed', 0, 1, false, 'parsed'],
      ['src/math.ts', null, 'modified', 7, 7, false, 'parsed'],
      ['src/names.ts', 'src/legacy/names.ts', 'renamed', 1, 1, false, 'parsed'],
      ['src/new.py', null, 'added', 2, 0, false, 'parsed'],
      ['src/util.py', null, 'modified', 5, 5, false, 'parsed'],
    ]);
    expect(result.files.find((f) => f.status === 'renamed')?.similarity).toBeGreaterThan(80);
    // The main-only commit after the fork is not part of what the branch changes.
    expect(result.files.some((f) => f.path === 'src/mainonly.ts')).toBe(false);
    expect(result.totals).toEqual({ files: 7, linesAdded: 17, linesRemoved: 14 });
    expect(result.truncated).toEqual({ files: false, parsed: false, symbols: false });
  });

  it('defaults the base to the default branch and the target to HEAD', async () => {
    const result = await compareBranches({ repoPath: join(repo.dir, 'src') });
    expect(result.base).toMatchObject({ ref: 'main', defaulted: true });
    expect(result.target).toMatchObject({ ref: 'HEAD', defaulted: true });
    expect(result.repoPath).toBe(repo.dir);
    expect(result.totals.files).toBe(7);
  });
});

describe('compareBranches: symbols', () => {
  it('classifies declarations added, removed and changed, signature changes flagged', async () => {
    const result = await compare();
    const rows = result.symbols.map((s) => [
      s.path,
      s.symbol,
      s.kind,
      s.change,
      s.signatureChanged,
    ]);
    expect(rows).toEqual([
      ['src/gone.ts', 'gone', 'function', 'removed', false],
      ['src/math.ts', 'add', 'function', 'changed', false],
      ['src/math.ts', 'mul', 'function', 'changed', true],
      ['src/math.ts', 'div', 'function', 'added', false],
      ['src/math.ts', 'sub', 'function', 'removed', false],
      ['src/names.ts', 'count', 'function', 'changed', false],
      ['src/new.py', 'fresh', 'function', 'added', false],
      ['src/util.py', 'greet', 'function', 'changed', false],
      ['src/util.py', 'scale', 'function', 'changed', true],
      ['src/util.py', 'shout', 'function', 'added', false],
      ['src/util.py', 'old_helper', 'function', 'removed', false],
    ]);
    expect(result.symbolTotals).toEqual({
      added: 3,
      removed: 3,
      changed: 5,
      unchanged: 4,
      signatureChanged: 2,
    });
    const mul = result.symbols.find((s) => s.symbol === 'mul');
    expect(mul).toMatchObject({
      signature: 'export function mul(a: number, b: number, c = 1): number',
      previousSignature: 'export function mul(a: number, b: number): number',
      startLine: 5,
      endLine: 7,
    });
    const sub = result.symbols.find((s) => s.symbol === 'sub');
    expect(sub).toMatchObject({ startLine: 5, endLine: 7, previousSignature: null });
    const count = result.symbols.find((s) => s.symbol === 'count');
    expect(count?.previousPath).toBe('src/legacy/names.ts');
    expect(result.files.find((f) => f.path === 'src/names.ts')?.symbols).toEqual({
      added: 0,
      removed: 0,
      changed: 1,
      unchanged: 2,
    });
  });

  it('finds no symbol change when only a method moves inside an unchanged class', async () => {
    const result = await compare();
    expect(result.symbols.some((s) => s.symbol.startsWith('Calc'))).toBe(false);
    expect(result.files.find((f) => f.path === 'src/math.ts')?.symbols?.unchanged).toBe(2);
  });

  it('bounds symbols listed and files parsed, saying so', async () => {
    const few = await compare({ maxSymbols: 2 });
    expect(few.symbols).toHaveLength(2);
    expect(few.symbolTotals.changed).toBe(5);
    expect(few.truncated.symbols).toBe(true);
    const one = await compare({ maxParsedFiles: 1 });
    expect(one.truncated.parsed).toBe(true);
    expect(one.files.filter((f) => f.symbolDiff === 'parsed').map((f) => f.path)).toEqual([
      'src/gone.ts',
    ]);
    expect(one.files.filter((f) => f.symbolDiff === 'file_limit')).toHaveLength(4);
    const tiny = await compare({ maxFileBytes: 40 });
    expect(tiny.files.find((f) => f.path === 'src/math.ts')?.symbolDiff).toBe('too_large');
  });
});

describe('compareBranches: refusals', () => {
  it.each([
    ['baseBranch', 'base_branch', '--upload-pack=x'],
    ['baseBranch', 'base_branch', '../x'],
    ['baseBranch', 'base_branch', 'no-such-branch'],
    ['targetBranch', 'target_branch', '--output=/tmp/x'],
    ['targetBranch', 'target_branch', 'a;b'],
    ['targetBranch', 'target_branch', 'missing/branch'],
  ])('refuses %s %s = %s naming the field', async (option, field, value) => {
    const error = await compare({ [option]: value }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe(field);
    expect((error as Error).message).toContain(field);
  });

  it('refuses a directory that is not in a git work tree, and a missing one', async () => {
    const plain = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-vcs-plain-')));
    mkdirSync(join(plain, 'sub'));
    try {
      const error = await compareBranches({ repoPath: plain }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error).toMatchObject({ field: 'repo_path' });
      expect((error as Error).message).toMatch(/not inside a git work tree/);
      const missing = await compareBranches({ repoPath: join(plain, 'nope') }).catch((e) => e);
      expect(missing).toMatchObject({ field: 'repo_path', refusal: 'missing' });
      const outside = await compareBranches({ repoPath: '/etc' }).catch((e: unknown) => e);
      expect(outside).toMatchObject({ field: 'repo_path', refusal: 'outside_allowed_roots' });
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it('refuses out-of-range bounds naming the field', async () => {
    await expect(compare({ limit: 0 })).rejects.toMatchObject({ field: 'limit' });
    await expect(compare({ limit: 1.5 })).rejects.toMatchObject({ field: 'limit' });
  });
});

describe('compareBranches: huge diffs stay bounded', () => {
  let big: TestRepo;
  beforeAll(() => {
    big = createTestRepo('cairn-vcs-big-');
    big.write('keep.txt', 'k\n');
    big.commit('base');
    big.git('checkout', '-qb', 'huge');
    for (let i = 0; i < 1500; i++) {
      big.write(`gen/f${String(i).padStart(4, '0')}.py`, `def f${i}():\n    return ${i}\n`);
    }
    big.commit('many files');
  });
  afterAll(() => big.cleanup());

  it('lists at most `limit` files, parses at most maxParsedFiles, totals stay exact', async () => {
    const result = await compareBranches({
      repoPath: big.dir,
      baseBranch: 'main',
      targetBranch: 'huge',
      limit: 120,
      maxParsedFiles: 30,
    });
    expect(result.files).toHaveLength(120);
    expect(result.totals).toEqual({ files: 1500, linesAdded: 3000, linesRemoved: 0 });
    expect(result.truncated).toEqual({ files: true, parsed: true, symbols: false });
    expect(result.files.filter((f) => f.symbolDiff === 'parsed')).toHaveLength(30);
    expect(result.symbols).toHaveLength(30);
    expect(result.symbols[0]).toMatchObject({
      path: 'gen/f0000.py',
      symbol: 'f0',
      change: 'added',
    });
  });

  it('stops reading git output at the byte cap and keeps only complete records', async () => {
    const [from, to] = [big.git('rev-parse', 'main').trim(), big.git('rev-parse', 'huge').trim()];
    const listing = await listChangedFiles(big.dir, from, to, 5000, 1000);
    expect(listing.truncated).toBe(true);
    expect(listing.entries.length).toBeGreaterThan(10);
    expect(listing.entries.length).toBeLessThan(200);
    for (const [i, entry] of listing.entries.entries()) {
      expect(entry.path).toBe(`gen/f${String(i).padStart(4, '0')}.py`);
      expect(entry.status).toBe('added');
    }
    expect(listing.totals.files).toBe(1500);
  });
});

describe('compareBranches: default branch and unrelated histories', () => {
  let small: TestRepo;
  beforeAll(() => {
    small = createTestRepo('cairn-vcs-small-');
    small.write('a.ts', 'export function a(): number {\n  return 1;\n}\n');
    small.commit('base');
    small.git('branch', '-m', 'main', 'trunk');
    small.git('checkout', '-q', '--orphan', 'island');
    small.git('rm', '-rq', '--cached', '.');
    small.remove('a.ts');
    small.write('b.ts', 'export function b(): number {\n  return 2;\n}\n');
    small.commit('unrelated');
  });
  afterAll(() => small.cleanup());

  it('refuses a missing base when there is no origin/HEAD, main or master', async () => {
    const error = await compareBranches({ repoPath: small.dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: 'base_branch' });
  });

  it('follows origin/HEAD when it is set', async () => {
    small.git('update-ref', 'refs/remotes/origin/trunk', 'trunk');
    small.git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk');
    const result = await compareBranches({ repoPath: small.dir, targetBranch: 'island' });
    expect(result.base).toMatchObject({ ref: 'origin/trunk', defaulted: true });
    // No common ancestor: the diff is base → target directly, and says so.
    expect(result.comparison).toBe('direct');
    expect(result.from).toBe(result.base.commit);
    expect(result.symbols.map((s) => [s.symbol, s.change])).toEqual([
      ['a', 'removed'],
      ['b', 'added'],
    ]);
  });
});
