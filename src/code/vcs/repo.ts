// The repository and the two refs a comparison names: repo_path checked against the allowed
// roots and resolved to its work tree's top level, refs validated before git sees them, and the
// default base branch. Refusals are InvalidInputErrors naming the tool's parameter.
import { InvalidInputError, NotFoundError } from '../../shared/index.js';
import {
  allowedRootsOf,
  resolveRef,
  resolveWalkRoot,
  runGitRaw,
  validateRef,
} from '../walk/index.js';
import type { ComparedRef } from './types.js';

/** Where to look: the repository and the roots it must lie under. */
export interface RepoOptions {
  /** Default: the user's home and the OS temp folder (as for index_repo). */
  allowedRoots?: readonly string[];
  /** Resolves a relative repo_path. Default: process.cwd(). */
  cwd?: string;
}

/**
 * The top level of the git work tree holding `repoPath`. Throws PathRefusedError (field
 * `repo_path`) for a path outside the allowed roots, missing or not a directory, and
 * InvalidInputError (field `repo_path`) when it is not inside a git work tree.
 */
export async function resolveRepo(repoPath: string, options: RepoOptions = {}): Promise<string> {
  const roots = allowedRootsOf(options.allowedRoots);
  const dir = await resolveWalkRoot(repoPath, roots, options.cwd, 'repo_path');
  const out = await runGitRaw(dir, ['rev-parse', '--show-toplevel'], 64 * 1024);
  const top = out.stdout.toString('utf8').trim();
  if (out.code !== 0 || top === '') {
    throw new InvalidInputError(
      `repo_path ${JSON.stringify(repoPath)} is not inside a git work tree`,
      'repo_path',
    );
  }
  return top;
}

async function refExists(repo: string, ref: string): Promise<boolean> {
  const out = await runGitRaw(repo, [
    'rev-parse',
    '--verify',
    '--quiet',
    '--end-of-options',
    `${ref}^{commit}`,
  ]);
  return out.code === 0;
}

/**
 * The repository's default branch: what `origin/HEAD` points at, else `main`, else `master`.
 * Null when none exists.
 */
export async function defaultBranch(repo: string): Promise<string | null> {
  const head = await runGitRaw(repo, [
    'symbolic-ref',
    '--quiet',
    '--short',
    'refs/remotes/origin/HEAD',
  ]);
  const origin = head.stdout.toString('utf8').trim();
  if (head.code === 0 && origin !== '') {
    try {
      validateRef(origin);
      if (await refExists(repo, origin)) return origin;
    } catch {
      // An origin/HEAD we would not accept from a caller is not used either.
    }
  }
  for (const name of ['main', 'master']) {
    if (await refExists(repo, `refs/heads/${name}`)) return name;
  }
  return null;
}

/**
 * Resolves one side of a comparison. Throws InvalidInputError naming `field` for a malformed
 * ref (an option, `..`, shell metacharacters) or one the repository does not have.
 */
export async function resolveSide(
  repo: string,
  ref: string,
  field: string,
  defaulted: boolean,
): Promise<ComparedRef> {
  validateRef(ref, field);
  try {
    return { ref, commit: await resolveRef(repo, ref, field), defaulted };
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new InvalidInputError(
        `${field}: no branch, tag or commit named ${JSON.stringify(ref)} in this repository`,
        field,
      );
    }
    throw error;
  }
}

/** The base side: `baseBranch`, else the default branch. */
export async function resolveBase(repo: string, baseBranch: string | undefined) {
  if (baseBranch !== undefined) return resolveSide(repo, baseBranch, 'base_branch', false);
  const name = await defaultBranch(repo);
  if (name === null) {
    throw new InvalidInputError(
      'base_branch: not given and the repository has no default branch (origin/HEAD, main or master)',
      'base_branch',
    );
  }
  return resolveSide(repo, name, 'base_branch', true);
}

/** The target side: `targetBranch`, else HEAD (what is checked out). */
export async function resolveTarget(repo: string, targetBranch: string | undefined) {
  return resolveSide(repo, targetBranch ?? 'HEAD', 'target_branch', targetBranch === undefined);
}

/** The merge base of two commits, or null when their histories are unrelated. */
export async function mergeBase(repo: string, base: string, target: string) {
  const out = await runGitRaw(repo, ['merge-base', base, target], 64 * 1024);
  const commit = out.stdout.toString('utf8').trim();
  return out.code === 0 && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(commit) ? commit : null;
}
