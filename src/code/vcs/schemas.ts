// One zod schema per VCS tool input (the spec's parameter names), next to the functions they
// feed, and the mapping from parsed arguments to those functions' options. A repo_id alone is
// resolved to the root of an indexed repository. No protocol types here.
import { z } from 'zod';

import { InvalidInputError } from '../../shared/index.js';
import type { Store } from '../../store/index.js';
import { COMPARE_LIMITS, type CompareOptions } from './compare.js';
import type { ImpactOptions } from './impact-types.js';
import { IMPACT_DEPTH } from './impact.js';
import { LIST_REPOS_LIMIT, type ListReposOptions } from './repos.js';

const text = (max: number) => z.string().min(1).max(max);
const ref = text(256).describe('A branch, tag or commit; validated before git sees it');

const repo = {
  repo_id: text(200).optional().describe('Repository identifier, usually injected by context'),
  repo_path: text(4096).optional().describe('Repository path on disk, usually injected by context'),
};

export const listReposInput = z.object({
  ...repo,
  query: text(200).optional().describe('Only branches whose name contains this'),
  limit: z.number().int().min(1).max(LIST_REPOS_LIMIT.max).optional(),
});

export const compareBranchesInput = z.object({
  ...repo,
  base_branch: ref.optional().describe('Default: origin/HEAD, else main, else master'),
  target_branch: ref.optional().describe('Default: HEAD'),
  limit: z.number().int().min(1).max(COMPARE_LIMITS.files.max).optional(),
});

export const analyzeImpactInput = compareBranchesInput.extend({
  depth: z
    .number()
    .int()
    .min(1)
    .max(IMPACT_DEPTH.max)
    .optional()
    .describe('Reference hops to follow from the changed symbols (default 3)'),
});

export type ListReposInput = z.infer<typeof listReposInput>;
export type CompareBranchesInput = z.infer<typeof compareBranchesInput>;
export type AnalyzeImpactInput = z.infer<typeof analyzeImpactInput>;

/**
 * The repository a call is about: `repo_path` when given, else the root of the newest indexed
 * collection with `repo_id`. Throws InvalidInputError (`repo_path`) when neither identifies one.
 */
export async function repoPathOf(
  store: Store,
  args: { repo_id?: string | undefined; repo_path?: string | undefined },
): Promise<string> {
  if (args.repo_path !== undefined) return args.repo_path;
  if (args.repo_id !== undefined) {
    const row = await store.get<{ root: string }>(
      'SELECT root FROM code_collections WHERE repo_id = ? ORDER BY indexed_at IS NULL, indexed_at DESC LIMIT 1',
      [args.repo_id],
    );
    if (row !== undefined) return row.root;
    throw new InvalidInputError(
      `repo_path: not given, and no indexed repository has repo_id ${JSON.stringify(args.repo_id)}`,
      'repo_path',
    );
  }
  throw new InvalidInputError(
    'repo_path: required (or the repo_id of an indexed repository)',
    'repo_path',
  );
}

/** compareBranches options from parsed `compare_branches` arguments. */
export async function compareOptionsOf(
  store: Store,
  args: CompareBranchesInput,
): Promise<CompareOptions> {
  const options: CompareOptions = { repoPath: await repoPathOf(store, args) };
  if (args.base_branch !== undefined) options.baseBranch = args.base_branch;
  if (args.target_branch !== undefined) options.targetBranch = args.target_branch;
  if (args.limit !== undefined) options.limit = args.limit;
  return options;
}

/** analyzeImpact options (without the graph) from parsed `analyze_impact` arguments. */
export async function impactOptionsOf(
  store: Store,
  args: AnalyzeImpactInput,
): Promise<ImpactOptions> {
  const options: ImpactOptions = await compareOptionsOf(store, args);
  if (args.depth !== undefined) options.depth = args.depth;
  return options;
}

/** listRepos options from parsed `list_repos` arguments. */
export function listReposOptionsOf(args: ListReposInput): ListReposOptions {
  const options: ListReposOptions = {};
  if (args.repo_id !== undefined) options.repoId = args.repo_id;
  if (args.repo_path !== undefined) options.repoPath = args.repo_path;
  if (args.query !== undefined) options.query = args.query;
  if (args.limit !== undefined) options.limit = args.limit;
  return options;
}
