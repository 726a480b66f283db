// The version-control module's public face: compare_branches, analyze_impact and list_repos as
// domain functions, and the reference graphs impact analysis walks.
export { COMPARE_LIMITS, compareBranches, type CompareOptions } from './compare.js';
export { defaultBranch, type RepoOptions } from './repo.js';
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
