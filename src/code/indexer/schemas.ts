// One zod schema per index-family tool input, with the spec's parameter names (index family:
// path, collection, extensions, exclude_dirs, ignore_patterns, max_file_size, follow_symlinks,
// token; git_index's branches, include_commits, depth from the VCS family), plus Cairn's
// dry_run, watch and wait_seconds; and the mapping to IndexParams. Shape only: the content
// (paths, refs, globs) is checked by start()/checkWalkOptions, naming the same fields.
import { z } from 'zod';

import { MAX_BRANCHES, MAX_DEPTH } from './params.js';
import type { IndexParams } from './types.js';

/** Longest an index_repo call waits for its job before answering with the running status. */
export const MAX_WAIT_SECONDS = 600;
export const DEFAULT_WAIT_SECONDS = 60;

const text = (field: string, max: number) =>
  z
    .string({ error: () => `${field} must be a string` })
    .min(1, `${field} must be a non-empty string`)
    .max(max, `${field} is longer than ${max} characters`);

const list = (field: string, max: number) =>
  z.array(text(`${field}[]`, 512)).max(max, `${field}: at most ${max} entries`);

const collection = text('collection', 100).describe(
  'Collection name (default: the directory name)',
);

export const indexRepoInput = z.object({
  action: z
    .enum(['start', 'git_index'], { error: () => 'action must be "start" or "git_index"' })
    .optional()
    .describe(
      'start (default): the work tree as it is on disk; git_index: what git tracks at `branches`',
    ),
  path: text('path', 4096).describe('Directory to index (inside the allowed roots)'),
  collection: collection.optional(),
  extensions: list('extensions', 100).optional().describe('Only these extensions (ts, .py…)'),
  exclude_dirs: list('exclude_dirs', 200).optional().describe('Directories to leave out'),
  ignore_patterns: list('ignore_patterns', 500)
    .optional()
    .describe('gitignore-style globs to leave out'),
  max_file_size: z
    .number()
    .int()
    .min(1)
    .max(64 * 1024 * 1024)
    .optional()
    .describe('Largest file indexed, bytes (default 1 MiB)'),
  follow_symlinks: z.boolean().optional().describe('Follow symbolic links (default false)'),
  branches: list('branches', MAX_BRANCHES)
    .optional()
    .describe('git_index: refs to index (default: the current branch)'),
  include_commits: z.boolean().optional().describe('git_index: also record commit metadata'),
  depth: z
    .number()
    .int()
    .min(1)
    .max(MAX_DEPTH)
    .optional()
    .describe('git_index: commits per ref (default 50)'),
  dry_run: z.boolean().optional().describe('Answer what would be indexed; write nothing'),
  watch: z
    .boolean()
    .optional()
    .describe('Keep the collection fresh with a file watcher while `cairn serve` runs'),
  wait_seconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .optional()
    .describe(
      'Wait this long for the job (progress notifications meanwhile); 0 answers at once. Default 60',
    ),
  token: z
    .string()
    .max(8192)
    .optional()
    .describe('Accepted for compatibility; authentication is the transport bearer token'),
});

export const indexStatusInput = z.object({
  collection: collection.optional().describe('One collection (default: all)'),
  token: z.string().max(8192).optional(),
});

export const clearIndexInput = z.object({
  collection: collection.describe('The collection to delete'),
  token: z.string().max(8192).optional(),
});

export type IndexRepoInput = z.infer<typeof indexRepoInput>;

/** IndexParams from parsed index_repo arguments (absent stays absent). */
export function indexParamsOf(a: IndexRepoInput): IndexParams {
  const p: IndexParams = { path: a.path };
  if (a.action !== undefined) p.action = a.action;
  if (a.collection !== undefined) p.collection = a.collection;
  if (a.extensions !== undefined) p.extensions = a.extensions;
  if (a.exclude_dirs !== undefined) p.excludeDirs = a.exclude_dirs;
  if (a.ignore_patterns !== undefined) p.ignorePatterns = a.ignore_patterns;
  if (a.max_file_size !== undefined) p.maxFileSize = a.max_file_size;
  if (a.follow_symlinks !== undefined) p.followSymlinks = a.follow_symlinks;
  if (a.branches !== undefined) p.branches = a.branches;
  if (a.include_commits !== undefined) p.includeCommits = a.include_commits;
  if (a.depth !== undefined) p.depth = a.depth;
  if (a.dry_run !== undefined) p.dryRun = a.dry_run;
  if (a.watch !== undefined) p.watch = a.watch;
  return p;
}
