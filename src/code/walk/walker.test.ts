// The walker on real temp directories and real git repositories: ignore rules (nested,
// negation, anchored, info/exclude, git's listing), defaults, sniffing, filters, symlinks,
// and the refusals. Each fixture is built in the test and removed after.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { InvalidInputError } from '../../shared/index.js';
import { checkIgnored } from './git.js';
import { PathRefusedError } from './roots.js';
import type { WalkOptions, WalkResult } from './types.js';
import { walkRepository } from './walker.js';

const made: string[] = [];

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-walk-')));
  made.push(dir);
  return dir;
}

function tree(files: Record<string, string | Buffer>): string {
  const root = tempDir();
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

function gitRepo(files: Record<string, string | Buffer>): string {
  const root = tree(files);
  git(root, '-c', 'init.defaultBranch=main', 'init', '-q');
  return root;
}

async function walk(path: string, options: Partial<WalkOptions> = {}): Promise<WalkResult> {
  return walkRepository({ path, ...options });
}

const paths = (r: WalkResult) => r.files.map((f) => f.path);
const reasonOf = (r: WalkResult, path: string) => r.skipped.find((s) => s.path === path)?.reason;
const MODES = ['git', 'never'] as const;

async function walkIn(mode: (typeof MODES)[number], files: Record<string, string>, extra = {}) {
  const root = mode === 'git' ? gitRepo(files) : tree(files);
  return walk(root, { git: mode === 'git' ? 'auto' : 'never', ...extra });
}

beforeAll(() => {
  process.env.GIT_CONFIG_GLOBAL = '/dev/null'; // a developer's global excludes must not leak in
  process.env.GIT_CONFIG_NOSYSTEM = '1';
});

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ignore rules', () => {
  it.each(MODES)('applies nested .gitignore files with negation (%s)', async (mode) => {
    const r = await walkIn(mode, {
      '.gitignore': '*.log\n',
      'a.log': 'x',
      'main.ts': 'export {};\n',
      'sub/.gitignore': '!keep.log\n',
      'sub/keep.log': 'kept',
      'sub/other.log': 'x',
      'sub/deeper/.gitignore': 'secret.ts\n',
      'sub/deeper/secret.ts': 'x',
      'secret.ts': 'not ignored here',
    });
    expect(r.mode).toBe(mode === 'git' ? 'git' : 'filesystem');
    expect(paths(r)).toEqual([
      '.gitignore',
      'main.ts',
      'secret.ts',
      'sub/.gitignore',
      'sub/deeper/.gitignore',
      'sub/keep.log',
    ]);
    expect(reasonOf(r, 'a.log')).toBe('gitignore');
    expect(reasonOf(r, 'sub/other.log')).toBe('gitignore');
    expect(reasonOf(r, 'sub/deeper/secret.ts')).toBe('gitignore');
  });

  it.each(MODES)('tells an anchored /gen from an unanchored gen (%s)', async (mode) => {
    const files = { 'gen/a.ts': 'x', 'src/gen/b.ts': 'x', 'src/c.ts': 'x' };
    const anchored = await walkIn(mode, { ...files, '.gitignore': '/gen\n' });
    expect(paths(anchored)).toEqual(['.gitignore', 'src/c.ts', 'src/gen/b.ts']);
    expect(reasonOf(anchored, 'gen')).toBe('gitignore');
    const anywhere = await walkIn(mode, { ...files, '.gitignore': 'gen\n' });
    expect(paths(anywhere)).toEqual(['.gitignore', 'src/c.ts']);
  });

  it('anchors /build too when the defaults are off', async () => {
    const files = { '.gitignore': '/build\n', 'build/a.ts': 'x', 'lib/build/b.ts': 'x' };
    const r = await walk(tree(files), { git: 'never', defaultExcludes: false });
    expect(paths(r)).toEqual(['.gitignore', 'lib/build/b.ts']);
    const withDefaults = await walk(tree(files), { git: 'never' });
    expect(reasonOf(withDefaults, 'lib/build')).toBe('default_dir');
  });

  it.each(MODES)('honours .git/info/exclude (%s)', async (mode) => {
    const root = gitRepo({ 'a.ts': 'x', 'local.ts': 'x' });
    writeFileSync(join(root, '.git/info/exclude'), 'local.ts\n');
    const r = await walk(root, { git: mode === 'git' ? 'auto' : 'never' });
    expect(paths(r)).toEqual(['a.ts']);
    expect(reasonOf(r, 'local.ts')).toBe('gitignore');
    expect(reasonOf(r, '.git')).toBe('default_dir');
  });

  it("takes git's listing as the truth in a work tree: untracked unignored files count", async () => {
    const root = gitRepo({ '.gitignore': '*.gen.ts\n', 'a.ts': 'x', 'forced.gen.ts': 'x' });
    git(root, 'add', '-f', '.gitignore', 'a.ts', 'forced.gen.ts');
    git(root, 'commit', '-qm', 'init');
    writeFileSync(join(root, 'untracked.ts'), 'new');
    writeFileSync(join(root, 'other.gen.ts'), 'ignored');
    const r = await walk(root);
    expect(r.mode).toBe('git');
    expect(paths(r)).toEqual(['.gitignore', 'a.ts', 'forced.gen.ts', 'untracked.ts']);
    expect(reasonOf(r, 'other.gen.ts')).toBe('gitignore');
    expect(await checkIgnored(root, ['other.gen.ts', 'untracked.ts'])).toEqual(
      new Set(['other.gen.ts']),
    );
  });

  it('walks a subdirectory of a work tree with the rules of its parents', async () => {
    const root = gitRepo({ '.gitignore': '*.tmp\n', 'pkg/a.ts': 'x', 'pkg/b.tmp': 'x' });
    const r = await walk(join(root, 'pkg'));
    expect(r.mode).toBe('git');
    expect(paths(r)).toEqual(['a.ts']);
    expect(reasonOf(r, 'b.tmp')).toBe('gitignore');
  });
});

describe('patterns that match everything', () => {
  it.each([[['*']], [['**']], [['*.log', '**/*']]])('reports %j loudly', async (patterns) => {
    const r = await walk(tree({ 'a.ts': 'x', 'src/b.py': 'x' }), { ignorePatterns: patterns });
    expect(r.files).toEqual([]);
    expect(r.nothingToIndex?.reason).toBe('matches_everything');
    expect(r.nothingToIndex?.message).toContain('match every file');
  });

  it('reports exclude_dirs naming the root, and not an ordinary pattern', async () => {
    const root = tree({ 'a.ts': 'x', 'b.log': 'x' });
    const r = await walk(root, { excludeDirs: ['.'] });
    expect(r.nothingToIndex?.reason).toBe('matches_everything');
    const fine = await walk(root, { ignorePatterns: ['*.log'] });
    expect(fine.nothingToIndex).toBeNull();
    expect(paths(fine)).toEqual(['a.ts']);
    expect(reasonOf(fine, 'b.log')).toBe('ignore_patterns');
  });

  it('says why when nothing is left for other reasons', async () => {
    const r = await walk(tree({ 'a.log': 'x', 'yarn.lock': 'x' }), { extensions: ['ts'] });
    expect(r.nothingToIndex?.reason).toBe('no_files');
    expect(r.nothingToIndex?.message).toMatch(
      /extension: 1.*lock_file: 1|lock_file: 1.*extension: 1/,
    );
  });
});

describe('symlinks', () => {
  it('reports a loop when following links, and never follows it', async () => {
    const root = tree({ 'a/x.ts': 'x' });
    symlinkSync('..', join(root, 'a/up'));
    symlinkSync('self', join(root, 'self'));
    const r = await walk(root, { followSymlinks: true });
    expect(paths(r)).toEqual(['a/x.ts']);
    expect(reasonOf(r, 'a/up')).toBe('symlink_loop');
    expect(reasonOf(r, 'self')).toBe('symlink_loop');
  });

  it('skips links without following them when follow_symlinks is false', async () => {
    const root = tree({ 'a/x.ts': 'x' });
    symlinkSync('..', join(root, 'a/up'));
    symlinkSync('a/x.ts', join(root, 'alias.ts'));
    const r = await walk(root);
    expect(paths(r)).toEqual(['a/x.ts']);
    expect(reasonOf(r, 'a/up')).toBe('symlink');
    expect(reasonOf(r, 'alias.ts')).toBe('symlink');
  });

  it('follows a link outside the root only within the allowed roots', async () => {
    const outside = tree({ 'ext.ts': 'x' });
    const root = tree({ 'a.ts': 'x' });
    symlinkSync(outside, join(root, 'ext'));
    expect(paths(await walk(root, { followSymlinks: true }))).toEqual(['a.ts', 'ext/ext.ts']);
    const fenced = await walk(root, { followSymlinks: true, allowedRoots: [root] });
    expect(paths(fenced)).toEqual(['a.ts']);
    expect(reasonOf(fenced, 'ext')).toBe('symlink_outside_allowed_roots');
    expect(reasonOf(await walk(root), 'ext')).toBe('symlink');
  });

  it('indexes a file reached twice once', async () => {
    const root = tree({ 'a/x.ts': 'x' });
    symlinkSync('a', join(root, 'b'));
    const r = await walk(root, { followSymlinks: true });
    expect(paths(r)).toEqual(['a/x.ts']);
    expect(reasonOf(r, 'b')).toBe('duplicate');
  });
});

describe('file classification', () => {
  it('skips binary and oversized files with reasons', async () => {
    const invalid = Buffer.alloc(500, 0xff);
    const root = tree({
      'nul.dat': Buffer.from([0x41, 0x00, 0x42]),
      'latin.txt': invalid,
      'big.ts': 'x'.repeat(2000) + '\n',
      'ok.ts': 'const é = 1;\n',
    });
    const r = await walk(root, { maxFileSize: 1000 });
    expect(paths(r)).toEqual(['ok.ts']);
    expect(reasonOf(r, 'nul.dat')).toBe('binary');
    expect(reasonOf(r, 'latin.txt')).toBe('binary');
    expect(r.skipped.find((s) => s.path === 'big.ts')).toMatchObject({
      reason: 'too_large',
      detail: '2001 > 1000 bytes',
    });
    expect(r.skippedByReason).toMatchObject({ binary: 2, too_large: 1 });
  });

  it('skips minified, lock files and default folders', async () => {
    const r = await walk(
      tree({
        'app.min.js': 'a;\n',
        'bundle.js': 'var a=1;'.repeat(600),
        'normal.js': 'var a = 1;\n'.repeat(600),
        'package-lock.json': '{}',
        'Cargo.lock': '',
        'go.sum': '',
        'node_modules/x/index.js': 'x',
        'src/__pycache__/m.pyc': 'x',
      }),
    );
    expect(paths(r)).toEqual(['normal.js']);
    expect(r.files[0]?.language).toBe('javascript');
    expect(reasonOf(r, 'app.min.js')).toBe('minified');
    expect(reasonOf(r, 'bundle.js')).toBe('minified');
    expect(r.skippedByReason.lock_file).toBe(3);
    expect(reasonOf(r, 'node_modules')).toBe('default_dir');
    expect(reasonOf(r, 'src/__pycache__')).toBe('default_dir');
  });

  it('filters by extensions and exclude_dirs, and carries size, mtime and language', async () => {
    const root = tree({
      'a.ts': 'abc',
      'b.PY': 'x',
      'c.md': 'x',
      'docs/d.ts': 'x',
      'src/gen/e.ts': 'x',
      'lib/gen/f.ts': 'x',
    });
    const r = await walk(root, { extensions: ['ts', '.py'], excludeDirs: ['docs', 'src/gen'] });
    expect(paths(r)).toEqual(['a.ts', 'b.PY', 'lib/gen/f.ts']);
    expect(r.files[0]).toMatchObject({
      absPath: join(root, 'a.ts'),
      size: 3,
      language: 'typescript',
    });
    expect(r.files[0]?.mtimeMs).toBeGreaterThan(0);
    expect(r.files[1]?.language).toBe('python');
    expect(reasonOf(r, 'c.md')).toBe('extension');
    expect(reasonOf(r, 'docs')).toBe('exclude_dirs');
    expect(reasonOf(r, 'src/gen')).toBe('exclude_dirs');
  });

  it('stops at maxFiles and says so', async () => {
    const r = await walk(tree({ 'a.ts': 'x', 'b.ts': 'x', 'c.ts': 'x' }), { maxFiles: 2 });
    expect(paths(r)).toEqual(['a.ts', 'b.ts']);
    expect(r.truncated).toBe(true);
  });
});

describe('refusals', () => {
  it('refuses a path outside the allowed roots, missing, or a file, naming path', async () => {
    const root = tree({ 'a.ts': 'x' });
    const elsewhere = tempDir();
    const cases: [string, WalkOptions['allowedRoots'], string][] = [
      [root, [elsewhere], 'outside_allowed_roots'],
      [join(root, 'missing'), undefined, 'missing'],
      [join(root, 'a.ts'), undefined, 'not_directory'],
      ['', undefined, 'invalid'],
    ];
    for (const [path, allowedRoots, refusal] of cases) {
      const error = await walk(path, allowedRoots ? { allowedRoots } : {}).catch((e: unknown) => e);
      expect(error, refusal).toBeInstanceOf(PathRefusedError);
      expect(error).toMatchObject({ refusal, field: 'path', code: 'invalid_input' });
    }
  });

  it('refuses a link that leads out of the allowed roots', async () => {
    const inside = tempDir();
    const target = tree({ 'a.ts': 'x' });
    symlinkSync(target, join(inside, 'link'));
    const error = await walk(join(inside, 'link'), { allowedRoots: [inside] }).catch((e) => e);
    expect(error).toMatchObject({ refusal: 'outside_allowed_roots', field: 'path' });
  });

  it('names the malformed parameter', async () => {
    const root = tree({ 'a.ts': 'x' });
    const bad: [Partial<WalkOptions>, string][] = [
      [{ maxFileSize: 0 }, 'max_file_size'],
      [{ extensions: ['a/b'] }, 'extensions'],
      [{ excludeDirs: ['../up'] }, 'exclude_dirs'],
      [{ ignorePatterns: [''] }, 'ignore_patterns'],
    ];
    for (const [options, field] of bad) {
      const error = await walk(root, options).catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(InvalidInputError);
      expect(error).toMatchObject({ field });
    }
  });
});
