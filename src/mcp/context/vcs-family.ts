// The VCS family (spec "VCS Tool Family"): list_repos, compare_branches, analyze_impact. Thin
// handlers over src/code/vcs. `repo_path` and `repo_id` are "usually injected by context": when
// the caller names neither, the workspace discovered at start (provenance `repo_path`) is used.
// No provenance is required: the spec lists only index, search and memory.
import {
  analyzeImpact,
  analyzeImpactInput,
  compareBranches,
  compareBranchesInput,
  compareOptionsOf,
  impactOptionsOf,
  listRepos,
  listReposInput,
  listReposOptionsOf,
  referenceGraphFor,
} from '../../code/index.js';
import type { Core } from '../../core/index.js';
import { type ContextCallContext, type ContextFamily, contextTool } from './family.js';
import { compareText, impactText, reposText } from './vcs-text.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

/** The arguments with `repo_path` filled from discovery when neither repo field was given. */
async function withRepo<T extends { repo_id?: string | undefined; repo_path?: string | undefined }>(
  args: T,
  ctx: ContextCallContext,
): Promise<T> {
  if (args.repo_path !== undefined || args.repo_id !== undefined) return args;
  const found = (await ctx.discovered()).provenance.repo_path;
  return found === undefined ? args : { ...args, repo_path: found };
}

function vcsTools(core: Core) {
  return [
    contextTool({
      name: 'list_repos',
      description:
        'List the indexed repositories: collection, root, mode (work tree or git refs), repo_id, project_id, index state, files and chunks, when it was last brought up to date, its branches (indexed, and in git), and freshness (index age; for a work tree, how many indexed files changed on disk since). `repo_id` / `repo_path` narrow to one repository, `query` filters branch names, `limit` caps the list.',
      input: listReposInput,
      annotations: { title: 'List repositories', ...READ_ONLY },
      handler: async (a) => {
        const found = await listRepos(core.store, listReposOptionsOf(a));
        return { text: reposText(found.repos, found.truncated), data: { ...found } };
      },
    }),
    contextTool({
      name: 'compare_branches',
      description:
        'What `target_branch` (default HEAD) changes since it forked from `base_branch` (default origin/HEAD, else main, else master): files added, removed, modified and renamed with line counts, and the declarations (functions, methods, classes…) added, removed and changed, read from the syntax trees of both sides. `repo_path` defaults to the workspace. Bounded by `limit` files; totals stay exact and `truncated` says what was cut.',
      input: compareBranchesInput,
      annotations: { title: 'Compare branches', ...READ_ONLY },
      handler: async (a, ctx) => {
        const options = await compareOptionsOf(core.store, await withRepo(a, ctx));
        const result = await compareBranches({ ...options, allowedRoots: core.codeRoots });
        return { text: compareText(result), data: { ...result } };
      },
    }),
    contextTool({
      name: 'analyze_impact',
      description:
        'The impact of what `target_branch` changes since `base_branch`: the changed symbols, the code that calls, references or imports them (transitively, `depth` hops, default 3, at most 10) found through the index when one is ready for the target (else by reading the tree at the target), and a 0–100 score with its reasons. Says which graph answered and whether it is stale.',
      input: analyzeImpactInput,
      annotations: { title: 'Analyze impact', ...READ_ONLY },
      handler: async (a, ctx) => {
        const args = await withRepo(a, ctx);
        const options = await impactOptionsOf(core.store, args);
        const graph = await referenceGraphFor(core.store, {
          repoPath: options.repoPath,
          ...(options.targetBranch === undefined ? {} : { targetBranch: options.targetBranch }),
          allowedRoots: core.codeRoots,
        });
        const result = await analyzeImpact({ ...options, graph, allowedRoots: core.codeRoots });
        return { text: impactText(result), data: { ...result } };
      },
    }),
  ];
}

export const vcsFamily: ContextFamily = { name: 'vcs', tools: vcsTools };
