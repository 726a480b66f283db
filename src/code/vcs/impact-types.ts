// The shapes analyzeImpact takes and returns. Types only.
import type { CompareOptions } from './compare.js';
import type { ImpactLevel, ImpactReason } from './score.js';
import type {
  BranchComparison,
  GraphInfo,
  ReferenceGraph,
  SymbolChange,
  SymbolCounts,
} from './types.js';

export interface ImpactOptions extends CompareOptions {
  /** How many reference hops to follow from the changed symbols. Default 3, at most 10. */
  depth?: number;
  /** Where references are looked up. Default: treeReferenceGraph at the target commit. */
  graph?: ReferenceGraph;
  /** Dependents listed at most (default 500). */
  maxDependents?: number;
}

/** Code that uses a changed symbol, or uses code that does (depth > 1). */
export interface ImpactDependent {
  path: string;
  /** The declaration that holds the reference; null for top-level code (or a file-level import). */
  symbol: string | null;
  /** 1 = uses a changed symbol; n = n hops away. */
  depth: number;
  /** The strongest kind of edge found: call over reference over import. */
  via: 'call' | 'reference' | 'import';
  /** Qualified names it uses (changed symbols at depth 1, dependents beyond), at most 5. */
  uses: string[];
  /**
   * The edge is confirmed by location: the user is in the defining file, or its file imports
   * the defining file. False for a match by name alone (same-package Go/Java, an unresolved
   * import, or a different symbol of the same name).
   */
  linked: boolean;
  test: boolean;
}

/** A file reached, with its dependents. */
export interface ImpactFile {
  path: string;
  dependents: number;
  /** The smallest depth among its dependents. */
  depth: number;
  test: boolean;
}

/** Does the graph describe the target? Checked on the changed files it should hold. */
export interface GraphFreshness {
  /** True when any changed file's content in the graph differs from the target's. */
  stale: boolean;
  /** Changed files whose graph copy is missing or differs (at most 20). */
  staleFiles: string[];
  /** How many changed files were checked. */
  checkedFiles: number;
}

export interface ImpactAnalysis {
  repoPath: string;
  base: BranchComparison['base'];
  target: BranchComparison['target'];
  from: string;
  comparison: BranchComparison['comparison'];
  depth: number;
  /** The symbol changes (as compareBranches lists them); removed and changed ones seed the walk. */
  changed: SymbolChange[];
  symbolTotals: SymbolCounts & { signatureChanged: number };
  dependents: ImpactDependent[];
  files: ImpactFile[];
  graph: GraphInfo & GraphFreshness;
  /** 0–100; see docs/code-context.md "Version control" for the formula. */
  score: number;
  level: ImpactLevel;
  reasons: ImpactReason[];
  truncated: BranchComparison['truncated'] & { dependents: boolean; graph: boolean };
}
