// `git_index`: what git tracks at a ref (ls-tree with sizes) and a reader of file contents at
// that ref (git show). Refs are checked against a strict pattern, then resolved with
// rev-parse --verify; a ref is never passed to a shell, never read as an option.
import { InvalidInputError, NotFoundError } from '../../shared/index.js';
import { languageOf } from '../languages.js';
import { runGit, runGitRaw } from './git.js';
import { compileRules } from './rules.js';
import type { SkippedEntry, WalkedFile, WalkOptions } from './types.js';

/** A ref name: starts with an alphanumeric, then [A-Za-z0-9._/-], optional ~N / ^N suffixes. */
const REF_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}(?:[~^][0-9]{0,4}){0,8}$/;

/** A file git tracks at a ref. `absPath` is absent: read it with createGitReader. */
export interface GitTreeFile extends Omit<WalkedFile, 'absPath' | 'mtimeMs'> {
  /** The blob's object id. */
  objectId: string;
}

/** What git tracks at one ref, filtered by the index family's parameters. */
export interface GitTreeListing {
  ref: string;
  /** The commit the ref resolved to (40 or 64 hex digits). */
  commit: string;
  files: GitTreeFile[];
  skipped: SkippedEntry[];
}

/**
 * Throws InvalidInputError (field `branches` unless told) when `ref` is not a plain ref name:
 * a leading `-` (an option), `..`, `@{`, shell metacharacters, spaces, a trailing `/` or `.lock`.
 */
export function validateRef(ref: string, field = 'branches'): string {
  const bad =
    typeof ref !== 'string' ||
    !REF_PATTERN.test(ref) ||
    ref.includes('..') ||
    ref.includes('//') ||
    ref.includes('/.') ||
    ref.endsWith('/') ||
    ref.endsWith('.') ||
    ref.endsWith('.lock');
  if (bad)
    throw new InvalidInputError(`${field}: ${JSON.stringify(ref)} is not a valid git ref`, field);
  return ref;
}

/** The commit a validated ref names. Throws NotFoundError when the repository has no such ref. */
export async function resolveRef(repo: string, ref: string, field = 'branches'): Promise<string> {
  validateRef(ref, field);
  const out = await runGitRaw(repo, [
    'rev-parse',
    '--verify',
    '--quiet',
    '--end-of-options',
    `${ref}^{commit}`,
  ]);
  const commit = out.stdout.toString('utf8').trim();
  if (out.code !== 0 || !/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(commit)) {
    throw new NotFoundError(`${field}: no commit named ${JSON.stringify(ref)} in ${repo}`);
  }
  return commit;
}

interface TreeLine {
  mode: string;
  type: string;
  objectId: string;
  size: number;
  path: string;
}

function parseTreeLine(line: string): TreeLine | null {
  const tab = line.indexOf('\t');
  const fields = line.slice(0, tab).split(/ +/);
  if (tab < 0 || fields.length !== 4) return null;
  const [mode = '', type = '', objectId = '', size = ''] = fields;
  return { mode, type, objectId, size: Number(size), path: line.slice(tab + 1) };
}

function classifyTreeLine(
  line: TreeLine,
  rules: ReturnType<typeof compileRules>,
): SkippedEntry | GitTreeFile {
  const name = line.path.slice(line.path.lastIndexOf('/') + 1);
  const parts = line.path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    const verdict = rules.dirReason(dir, parts[i - 1] ?? '');
    if (verdict !== null)
      return { path: line.path, kind: 'file', ...verdict, detail: `in ${dir}/` };
  }
  if (line.type === 'commit') return { path: line.path, kind: 'dir', reason: 'submodule' };
  if (line.mode === '120000') return { path: line.path, kind: 'file', reason: 'symlink' };
  const verdict = rules.fileReason(line.path, name, line.size);
  if (verdict !== null) return { path: line.path, kind: 'file', ...verdict };
  return { path: line.path, size: line.size, language: languageOf(name), objectId: line.objectId };
}

/**
 * Lists what git tracks at `ref` under `repo` (`git ls-tree -r --long`), with sizes, filtered
 * by `extensions`, `exclude_dirs`, `ignore_patterns`, `max_file_size` and the defaults (not by
 * .gitignore: the tree is what was committed). Content is not sniffed here: read it with
 * createGitReader and check it with classifyContent. Throws InvalidInputError / NotFoundError
 * for a bad or unknown ref.
 */
export async function listGitTree(
  repo: string,
  ref: string,
  options: Omit<WalkOptions, 'path'> = {},
): Promise<GitTreeListing> {
  const rules = compileRules({ ...options, path: repo });
  const commit = await resolveRef(repo, ref);
  const out = await runGit(repo, ['ls-tree', '-r', '--long', '-z', commit]);
  const listing: GitTreeListing = { ref, commit, files: [], skipped: [] };
  for (const raw of out.toString('utf8').split('\0')) {
    const line = raw === '' ? null : parseTreeLine(raw);
    if (line === null) continue;
    const entry = classifyTreeLine(line, rules);
    if ('reason' in entry) listing.skipped.push(entry);
    else listing.files.push(entry);
  }
  return listing;
}

/**
 * A reader of file contents at `commit` (`git show <commit>:./<path>`, relative to `repo`),
 * bounded by `maxBytes`. Throws InvalidInputError for a path that is absolute or leaves the
 * tree, NotFoundError when the commit has no such file.
 */
export function createGitReader(
  repo: string,
  commit: string,
  maxBytes = 16 * 1024 * 1024,
): (path: string) => Promise<Buffer> {
  if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(commit)) {
    throw new InvalidInputError('commit must be a full object id (use resolveRef)', 'commit');
  }
  return async (path) => {
    if (
      path === '' ||
      path.startsWith('/') ||
      path.includes('\0') ||
      path.split('/').includes('..')
    ) {
      throw new InvalidInputError(`path ${JSON.stringify(path)} is not inside the tree`, 'path');
    }
    const out = await runGitRaw(repo, ['show', `${commit}:./${path}`], maxBytes);
    if (out.code !== 0) throw new NotFoundError(`no file ${path} at ${commit.slice(0, 12)}`);
    return out.stdout;
  };
}
