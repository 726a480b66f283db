// The version-control module's public face: compare_branches, analyze_impact and list_repos as
// domain functions, and the reference graphs impact analysis walks.
export { COMPARE_LIMITS, compareBranches, type CompareOptions } from './compare.js';
export { type GraphChoice, referenceGraphFor } from './graph-choose.js';
export {
  INDEX_GRAPH_MAX_ROWS,
  type IndexGraphOptions,
  indexReferenceGraph,
} from './graph-index.js';
export { TREE_GRAPH_MAX_FILES, type TreeGraphOptions, treeReferenceGraph } from './graph-tree.js';
export { analyzeImpact, IMPACT_DEPTH, IMPACT_MAX_DEPENDENTS } from './impact.js';
export type {
  GraphFreshness,
  ImpactAnalysis,
  ImpactDependent,
  ImpactFile,
  ImpactOptions,
} from './impact-types.js';
export { defaultBranch, type RepoOptions } from './repo.js';
export {
  type IndexedRepo,
  LIST_REPOS_LIMIT,
  listRepos,
  type ListReposOptions,
  MAX_BRANCHES,
  type RepoBranches,
} from './repos.js';
export {
  type AnalyzeImpactInput,
  analyzeImpactInput,
  type CompareBranchesInput,
  compareBranchesInput,
  compareOptionsOf,
  impactOptionsOf,
  type ListReposInput,
  listReposInput,
  listReposOptionsOf,
  repoPathOf,
} from './schemas.js';
export { type ImpactLevel, type ImpactReason, isPublic, isTestPath } from './score.js';
export type {
  BranchComparison,
  ComparedRef,
  FileChange,
  FileStatus,
  GraphInfo,
  GraphReference,
  ReferenceGraph,
  SymbolChange,
  SymbolCounts,
  SymbolDiffState,
} from './types.js';
export {
  checkWorkTree,
  FRESHNESS_BUDGET_MS,
  FRESHNESS_MAX_FILES,
  type WorkTreeFreshness,
} from './work-tree-freshness.js';
