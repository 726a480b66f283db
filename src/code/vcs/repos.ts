// list_repos: the indexed repositories (code_collections), their branches (indexed ones, and
// what git has when the root is a work tree) and how fresh each index is. Reads the store and
// runs bounded git commands; never writes.
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';

import { InvalidInputError } from '../../shared/index.js';
import type { Store } from '../../store/index.js';
import { runGitRaw } from '../walk/index.js';
import { checkWorkTree, type WorkTreeFreshness } from './work-tree-freshness.js';

export const LIST_REPOS_LIMIT = { default: 50, max: 500 } as const;
/** Branches listed per repository at most, indexed and git's each. */
export const MAX_BRANCHES = 100;

export interface ListReposOptions {
  /** Only collections with this repo_id. */
  repoId?: string;
  /** Only collections whose root is this directory or lies under it. */
  repoPath?: string;
  /** Only branches whose name contains this (case-insensitive). */
  query?: string;
  limit?: number;
  /** Epoch ms now (default Date.now). */
  now?: () => number;
}

export interface RepoBranches {
  /** `code_files.branch` values: '' is the work tree, else a ref name. */
  indexed: string[];
  /** `refs/heads` of the root, when it is a git repository; else null. */
  git: string[] | null;
  /** The checked-out branch, when the root is a git work tree on a branch. */
  current: string | null;
  truncated: boolean;
}

export interface IndexedRepo {
  collection: string;
  root: string;
  mode: 'filesystem' | 'git';
  repoId: string | null;
  projectId: string | null;
  state: 'empty' | 'indexing' | 'ready' | 'failed';
  files: number;
  chunks: number;
  lines: number;
  bytes: number;
  /** Epoch ms of the last completed index, or null. */
  indexedAt: number | null;
  branches: RepoBranches;
  freshness: { indexAgeMs: number | null; workTree: WorkTreeFreshness | null };
}

interface CollectionRow {
  id: number;
  name: string;
  root: string;
  mode: 'filesystem' | 'git';
  repo_id: string | null;
  project_id: string | null;
  state: IndexedRepo['state'];
  files: number;
  chunks: number;
  lines: number;
  bytes: number;
  indexed_at: number | null;
}

async function canonical(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

function validate(options: ListReposOptions) {
  const limit = options.limit ?? LIST_REPOS_LIMIT.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_REPOS_LIMIT.max) {
    throw new InvalidInputError(
      `limit must be an integer from 1 to ${LIST_REPOS_LIMIT.max}`,
      'limit',
    );
  }
  for (const field of ['repoId', 'repoPath', 'query'] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== 'string' || value.includes('\0'))) {
      const name = field === 'repoId' ? 'repo_id' : field === 'repoPath' ? 'repo_path' : 'query';
      throw new InvalidInputError(`${name} must be a string`, name);
    }
  }
  return limit;
}

async function gitBranches(
  root: string,
): Promise<{ names: string[] | null; current: string | null }> {
  const refs = await runGitRaw(
    root,
    ['for-each-ref', `--count=${MAX_BRANCHES + 1}`, '--format=%(refname:short)', 'refs/heads'],
    256 * 1024,
  ).catch(() => null);
  if (refs === null || refs.code !== 0) return { names: null, current: null };
  const head = await runGitRaw(root, ['symbolic-ref', '--quiet', '--short', 'HEAD'], 4096).catch(
    () => null,
  );
  const names = refs.stdout
    .toString('utf8')
    .split('\n')
    .filter((n) => n !== '');
  const current = head?.code === 0 ? head.stdout.toString('utf8').trim() || null : null;
  return { names, current };
}

async function branchesOf(store: Store, row: CollectionRow, query: string | undefined) {
  const match = (name: string) =>
    query === undefined || name.toLowerCase().includes(query.toLowerCase());
  const indexed = await store.all<{ branch: string }>(
    `SELECT DISTINCT branch FROM code_files WHERE collection_id = ? ORDER BY branch LIMIT ${MAX_BRANCHES + 1}`,
    [row.id],
  );
  const git = await gitBranches(row.root);
  const names = indexed.map((r) => r.branch);
  const branches: RepoBranches = {
    indexed: names.filter(match).slice(0, MAX_BRANCHES),
    git: git.names === null ? null : git.names.filter(match).slice(0, MAX_BRANCHES),
    current: git.current,
    truncated: names.length > MAX_BRANCHES || (git.names?.length ?? 0) > MAX_BRANCHES,
  };
  return { branches, hasWorkTree: names.includes('') };
}

/**
 * The indexed repositories, newest index first, with branches and freshness.
 * @throws InvalidInputError (`limit`, `repo_id`, `repo_path`, `query`) for malformed filters.
 */
export async function listRepos(
  store: Store,
  options: ListReposOptions = {},
): Promise<{ repos: IndexedRepo[]; truncated: boolean }> {
  const limit = validate(options);
  const now = (options.now ?? Date.now)();
  const under = options.repoPath === undefined ? null : await canonical(options.repoPath);
  const rows = (
    await store.all<CollectionRow>(
      `SELECT id, name, root, mode, repo_id, project_id, state, files, chunks, lines, bytes, indexed_at
       FROM code_collections WHERE (CAST(? AS TEXT) IS NULL OR repo_id = ?)
       ORDER BY indexed_at IS NULL, indexed_at DESC, name LIMIT 10000`,
      [options.repoId ?? null, options.repoId ?? null],
    )
  ).filter((r) => under === null || r.root === under || r.root.startsWith(`${under}/`));
  const repos: IndexedRepo[] = [];
  for (const row of rows.slice(0, limit)) {
    const { branches, hasWorkTree } = await branchesOf(store, row, options.query);
    const workTree = hasWorkTree ? await checkWorkTree(store, row.id, row.root) : null;
    repos.push({
      collection: row.name,
      root: row.root,
      mode: row.mode,
      repoId: row.repo_id,
      projectId: row.project_id,
      state: row.state,
      files: row.files,
      chunks: row.chunks,
      lines: row.lines,
      bytes: row.bytes,
      indexedAt: row.indexed_at,
      branches,
      freshness: { indexAgeMs: row.indexed_at === null ? null : now - row.indexed_at, workTree },
    });
  }
  return { repos, truncated: rows.length > limit };
}
