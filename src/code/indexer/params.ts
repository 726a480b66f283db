// Checks start()'s parameters before any background work: types, the path (as the walker would
// refuse it), the filters, the refs of git_index; derives the collection name. Errors are
// InvalidInputError naming the spec's (snake_case) field. Reads the file system and git only.
import { basename } from 'node:path';

import { InvalidInputError } from '../../shared/index.js';
import {
  checkWalkOptions,
  isGitWorkTree,
  resolveRef,
  runGitRaw,
  validateRef,
  type WalkOptions,
} from '../walk/index.js';
import type { IndexParams } from './types.js';

/** Most refs one git_index job takes. */
export const MAX_BRANCHES = 20;
/** Default and largest commit depth per ref. */
export const DEFAULT_DEPTH = 50;
export const MAX_DEPTH = 1000;

const COLLECTION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The walker's filters, as the job passes them on (and the collection records them). */
export type Filters = Pick<
  WalkOptions,
  'extensions' | 'excludeDirs' | 'ignorePatterns' | 'maxFileSize' | 'followSymlinks'
>;

/** Checked parameters: everything a job needs, serialisable (it crosses into a worker). */
export interface JobParams {
  action: 'start' | 'git_index';
  root: string;
  collection: string;
  filters: Filters;
  /** git_index: the refs and the commits they named when the job was started. */
  refs: { ref: string; commit: string }[];
  includeCommits: boolean;
  depth: number;
  allowedRoots: string[] | null;
  matchesEverything: string | null;
}

function strings(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new InvalidInputError(`${field} must be a list of strings`, field);
  }
  return value as string[];
}

function flag(value: unknown, field: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new InvalidInputError(`${field} must be true or false`, field);
}

/** The filters, type-checked (the walker checks their content). */
export function filtersOf(params: IndexParams): Filters {
  const filters: Filters = {};
  const extensions = strings(params.extensions, 'extensions');
  const excludeDirs = strings(params.excludeDirs, 'exclude_dirs');
  const ignorePatterns = strings(params.ignorePatterns, 'ignore_patterns');
  const followSymlinks = flag(params.followSymlinks, 'follow_symlinks');
  if (extensions !== undefined) filters.extensions = extensions;
  if (excludeDirs !== undefined) filters.excludeDirs = excludeDirs;
  if (ignorePatterns !== undefined) filters.ignorePatterns = ignorePatterns;
  if (followSymlinks !== undefined) filters.followSymlinks = followSymlinks;
  if (params.maxFileSize !== undefined) {
    if (typeof params.maxFileSize !== 'number') {
      throw new InvalidInputError(
        'max_file_size must be a positive integer (bytes)',
        'max_file_size',
      );
    }
    filters.maxFileSize = params.maxFileSize;
  }
  return filters;
}

/** The collection named, or one derived from the root's basename (`my app` → `my-app`). */
export function collectionNameOf(given: unknown, root: string): string {
  if (given !== undefined) {
    if (typeof given !== 'string' || !COLLECTION_PATTERN.test(given)) {
      throw new InvalidInputError(
        'collection must be 1–100 characters of letters, digits, ".", "_" or "-", starting with a letter or digit',
        'collection',
      );
    }
    return given;
  }
  const derived = basename(root)
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 100);
  return derived === '' ? 'root' : derived;
}

/** The branch HEAD is on, or `HEAD` when detached. */
async function currentBranch(root: string): Promise<string> {
  const out = await runGitRaw(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const name = out.stdout.toString('utf8').trim();
  return out.code === 0 && name !== '' ? name : 'HEAD';
}

async function gitRefs(params: IndexParams, root: string): Promise<JobParams['refs']> {
  if (!(await isGitWorkTree(root))) {
    throw new InvalidInputError(`path ${root} is not inside a git work tree (git_index)`, 'path');
  }
  const given = strings(params.branches, 'branches') ?? [];
  const names = given.length > 0 ? [...new Set(given)] : [await currentBranch(root)];
  if (names.length > MAX_BRANCHES) {
    throw new InvalidInputError(`branches: at most ${MAX_BRANCHES} refs per job`, 'branches');
  }
  for (const ref of names) validateRef(ref);
  const refs: JobParams['refs'] = [];
  for (const ref of names) refs.push({ ref, commit: await resolveRef(root, ref) });
  return refs;
}

function depthOf(params: IndexParams, includeCommits: boolean): number {
  if (params.depth === undefined) return DEFAULT_DEPTH;
  if (!includeCommits) {
    throw new InvalidInputError('depth applies only with include_commits: true', 'depth');
  }
  if (!Number.isSafeInteger(params.depth) || params.depth < 1 || params.depth > MAX_DEPTH) {
    throw new InvalidInputError(`depth must be an integer from 1 to ${MAX_DEPTH}`, 'depth');
  }
  return params.depth;
}

/** Refuses git_index-only parameters given to a work-tree index, and `watch` to git_index. */
function refuseMisplaced(params: IndexParams, action: JobParams['action']): void {
  const gitOnly: [unknown, string][] = [
    [params.branches !== undefined && params.branches.length > 0, 'branches'],
    [params.includeCommits === true, 'include_commits'],
    [params.depth !== undefined, 'depth'],
  ];
  if (action === 'start') {
    for (const [given, field] of gitOnly) {
      if (given === true)
        throw new InvalidInputError(`${field} applies only to action git_index`, field);
    }
  } else if (params.watch === true) {
    throw new InvalidInputError('watch applies only to a work-tree index (action start)', 'watch');
  }
}

/**
 * Checks `params` (and resolves the root and, for git_index, every ref). Throws
 * PathRefusedError / InvalidInputError naming the field, NotFoundError for an unknown ref.
 */
export async function checkParams(
  params: IndexParams,
  allowedRoots: readonly string[] | undefined,
): Promise<JobParams> {
  if (typeof params !== 'object' || params === null) {
    throw new InvalidInputError('parameters must be an object', 'path');
  }
  const action = params.action ?? 'start';
  if (action !== 'start' && action !== 'git_index') {
    throw new InvalidInputError('action must be start or git_index', 'action');
  }
  if (typeof params.path !== 'string') throw new InvalidInputError('path is required', 'path');
  refuseMisplaced(params, action);
  flag(params.dryRun, 'dry_run');
  flag(params.watch, 'watch');
  const includeCommits = flag(params.includeCommits, 'include_commits') ?? false;
  const filters = filtersOf(params);
  const check = await checkWalkOptions({
    path: params.path,
    ...filters,
    ...(allowedRoots === undefined ? {} : { allowedRoots }),
  });
  return {
    action,
    root: check.root,
    collection: collectionNameOf(params.collection, check.root),
    filters,
    refs: action === 'git_index' ? await gitRefs(params, check.root) : [],
    includeCommits,
    depth: depthOf(params, includeCommits),
    allowedRoots: allowedRoots === undefined ? null : [...allowedRoots],
    matchesEverything: check.matchesEverything,
  };
}
