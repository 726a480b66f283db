// The caller's filters (extensions, exclude_dirs, ignore_patterns, max_file_size) and the
// defaults on top, compiled once per walk. Pure: no file system, no git.
import ignore, { type Ignore } from 'ignore';

import { InvalidInputError } from '../../shared/index.js';
import type { SkipReason, WalkOptions } from './types.js';

/** Directories skipped by default at any depth: dependencies, build output, caches. */
export const DEFAULT_EXCLUDED_DIRS: readonly string[] = [
  'node_modules', 'bower_components', 'vendor', 'dist', 'build', 'out', 'target',
  '.venv', 'venv', '__pycache__', '.mypy_cache', '.pytest_cache', '.tox', 'coverage',
  '.nyc_output', '.next', '.nuxt', '.gradle', '.cache', '.hg', '.svn',
]; // prettier-ignore

/** Lock files: generated, huge, and never what a code search is after. */
export const LOCK_FILES: ReadonlySet<string> = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb',
  'bun.lock', 'Cargo.lock', 'poetry.lock', 'Pipfile.lock', 'uv.lock', 'pdm.lock', 'go.sum',
  'composer.lock', 'Gemfile.lock', 'Podfile.lock', 'pubspec.lock', 'mix.lock', 'flake.lock',
  'packages.lock.json', 'gradle.lockfile', 'Package.resolved',
]); // prettier-ignore

/** Default `max_file_size`: 1 MiB. */
export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/** Paths every pattern set is tried on: matching all of them means matching everything. */
const PROBES = ['src/', 'a.ts', 'Makefile', '.env', 'x/y/z.go', 'README.md'];

/** The compiled filters of one walk. */
export interface WalkRules {
  maxFileSize: number;
  /** Why a directory (repo-relative, no trailing slash) is skipped, or null. */
  dirReason(rel: string, name: string): { reason: SkipReason; detail?: string } | null;
  /** Why a file is skipped before it is opened, or null. */
  fileReason(
    rel: string,
    name: string,
    size: number,
  ): { reason: SkipReason; detail?: string } | null;
  /** Set when the patterns exclude everything: the message to report instead of walking. */
  matchesEverything: string | null;
}

function normaliseExtension(ext: string): string {
  const e = ext.trim().replace(/^\*/, '');
  if (e === '' || e === '.' || e.includes('/') || e.includes('\\')) {
    throw new InvalidInputError(
      `extensions: ${JSON.stringify(ext)} is not an extension`,
      'extensions',
    );
  }
  return (e.startsWith('.') ? e : '.' + e).toLowerCase();
}

function excludeDirPattern(dir: string): string | null {
  const d = dir.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  if (d === '' || d === '.' || d === '/') return null; // the root itself
  if (d.split('/').includes('..') || /^[A-Za-z]:/.test(d)) {
    throw new InvalidInputError(
      `exclude_dirs: ${JSON.stringify(dir)} leaves the root`,
      'exclude_dirs',
    );
  }
  return d.includes('/') ? `/${d.replace(/^\/+/, '')}/` : `${d}/`;
}

function everything(ig: Ignore): boolean {
  return PROBES.every((p) => ig.ignores(p));
}

function compileIgnorePatterns(patterns: readonly string[]): { ig: Ignore; all: string[] } {
  const ig = ignore({ ignorecase: false });
  const all: string[] = [];
  for (const p of patterns) {
    if (typeof p !== 'string' || p.trim() === '') {
      throw new InvalidInputError('ignore_patterns: a pattern is empty', 'ignore_patterns');
    }
    ig.add(p);
    if (everything(ignore({ ignorecase: false }).add(p))) all.push(p);
  }
  return { ig, all };
}

function everythingMessage(
  patterns: string[],
  dirs: readonly string[],
  combined: boolean,
): string | null {
  if (patterns.length > 0) {
    return `ignore_patterns ${patterns.map((p) => JSON.stringify(p)).join(', ')} match every file: nothing would be indexed`;
  }
  if (dirs.length > 0) {
    return `exclude_dirs ${dirs.map((d) => JSON.stringify(d)).join(', ')} name the root itself: nothing would be indexed`;
  }
  return combined ? 'ignore_patterns together match every file: nothing would be indexed' : null;
}

function validMaxSize(size: number | undefined): number {
  if (size === undefined) return DEFAULT_MAX_FILE_SIZE;
  if (!Number.isSafeInteger(size) || size < 1) {
    throw new InvalidInputError(
      'max_file_size must be a positive integer (bytes)',
      'max_file_size',
    );
  }
  return size;
}

/**
 * Compiles the caller's filters. Throws InvalidInputError naming `extensions`, `exclude_dirs`,
 * `ignore_patterns` or `max_file_size` for malformed values; a set that matches everything is
 * not an error but `matchesEverything` (the walk reports it loudly).
 */
export function compileRules(options: WalkOptions): WalkRules {
  const exts = (options.extensions ?? []).map(normaliseExtension);
  const rootDirs = (options.excludeDirs ?? []).filter((d) => excludeDirPattern(d) === null);
  const dirIg = ignore({ ignorecase: false }).add(
    (options.excludeDirs ?? []).map(excludeDirPattern).filter((p): p is string => p !== null),
  );
  const user = compileIgnorePatterns(options.ignorePatterns ?? []);
  const defaults = new Set(
    options.defaultExcludes === false ? ['.git'] : [...DEFAULT_EXCLUDED_DIRS, '.git'],
  );
  const maxFileSize = validMaxSize(options.maxFileSize);
  return {
    maxFileSize,
    matchesEverything: everythingMessage(user.all, rootDirs, everything(user.ig)),
    dirReason(rel, name) {
      if (defaults.has(name)) return { reason: 'default_dir' };
      if (dirIg.ignores(rel + '/')) return { reason: 'exclude_dirs' };
      if (user.ig.ignores(rel + '/')) return { reason: 'ignore_patterns' };
      return null;
    },
    fileReason(rel, name, size) {
      if (user.ig.ignores(rel)) return { reason: 'ignore_patterns' };
      if (LOCK_FILES.has(name)) return { reason: 'lock_file' };
      const lower = name.toLowerCase();
      if (exts.length > 0 && !exts.some((e) => lower.endsWith(e))) return { reason: 'extension' };
      if (size > maxFileSize)
        return { reason: 'too_large', detail: `${size} > ${maxFileSize} bytes` };
      return null;
    },
  };
}
