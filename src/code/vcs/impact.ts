// analyze_impact: the declarations a branch removes or changes, the code that references them
// (calls and identifier references, transitively to a bounded depth; importers of the changed
// files, file-level), whether the graph that answered matches the target, and a score.
import { InvalidInputError } from '../../shared/index.js';
import { type CompareOptions, compareDetailed } from './compare.js';
import { treeReferenceGraph } from './graph-tree.js';
import type { ImpactAnalysis, ImpactOptions } from './impact-types.js';
import { staleness, walkDependents } from './impact-walk.js';
import { isPublic, isTestPath, scoreImpact } from './score.js';

export const IMPACT_DEPTH = { default: 3, max: 10 } as const;
export const IMPACT_MAX_DEPENDENTS = { default: 500, max: 5000 } as const;

function bounded(
  value: number | undefined,
  field: string,
  range: { default: number; max: number },
) {
  if (value === undefined) return range.default;
  if (!Number.isInteger(value) || value < 1 || value > range.max) {
    throw new InvalidInputError(`${field} must be an integer from 1 to ${range.max}`, field);
  }
  return value;
}

/**
 * The impact of what `targetBranch` changes since it forked from `baseBranch` (defaults as
 * compareBranches): changed symbols, their dependents to `depth` (default 3, 1–10) through
 * `graph` (default: a tree graph at the target commit), the graph's freshness relative to the
 * target, and a 0–100 score with its reasons.
 * @throws what compareBranches throws; InvalidInputError (`depth`, `maxDependents`).
 */
export async function analyzeImpact(options: ImpactOptions): Promise<ImpactAnalysis> {
  const depth = bounded(options.depth, 'depth', IMPACT_DEPTH);
  const maxDependents = bounded(options.maxDependents, 'maxDependents', IMPACT_MAX_DEPENDENTS);
  const compareOptions: CompareOptions = { ...options };
  const { comparison, allSymbols, targetHashes } = await compareDetailed(compareOptions);
  const graph =
    options.graph ??
    (await treeReferenceGraph(comparison.repoPath, comparison.target.commit, options));
  const renamed = new Map(
    comparison.files.filter((f) => f.previousPath !== null).map((f) => [f.previousPath, f.path]),
  );
  const seeds = allSymbols.filter((s) => s.change !== 'added');
  const walk = await walkDependents(graph, seeds, { depth, maxDependents, renamed });
  const fresh = await staleness(graph, targetHashes);
  const breaking = seeds.filter(
    (s) => isPublic(s) && (s.change === 'removed' || s.signatureChanged),
  );
  const testDependents = walk.dependents.filter((d) => d.test).length;
  const unparsedLines = comparison.files
    .filter((f) => f.symbolDiff !== 'parsed')
    .reduce((sum, f) => sum + (f.linesAdded ?? 0) + (f.linesRemoved ?? 0), 0);
  const weight = (linked: boolean) => (linked ? 1 : 0.5);
  const direct = walk.dependents.filter((d) => d.depth === 1);
  const deeper = walk.dependents.filter((d) => d.depth > 1);
  const scored = scoreImpact({
    direct: direct.reduce((sum, d) => sum + weight(d.linked), 0),
    transitive: deeper.reduce((sum, d) => sum + weight(d.linked), 0),
    directCount: direct.length,
    transitiveCount: deeper.length,
    files: walk.files.length,
    breaking: breaking.length,
    breakingReferenced: breaking.filter((s) => walk.referenced.has(`${s.path}\0${s.symbol}`))
      .length,
    symbolsChanged: allSymbols.length,
    unparsedLines,
    testsChanged: comparison.files.some((f) => isTestPath(f.path)),
    testDependents,
  });
  return {
    repoPath: comparison.repoPath,
    base: comparison.base,
    target: comparison.target,
    from: comparison.from,
    comparison: comparison.comparison,
    depth,
    changed: comparison.symbols,
    symbolTotals: comparison.symbolTotals,
    dependents: walk.dependents,
    files: walk.files,
    graph: { ...graph.info(), ...fresh },
    ...scored,
    truncated: {
      ...comparison.truncated,
      dependents: walk.truncated,
      graph: graph.info().truncated,
    },
  };
}
