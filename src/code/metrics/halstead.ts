// Halstead's measures from a syntax tree's leaves and the maintainability index built on them.
// Operators are anonymous tokens (keywords, punctuation; a bracket pair once), operands are
// named leaves and literal atoms (identifiers, numbers, whole strings). Pure arithmetic after
// the scan; no other metric lives here.
import type { SyntaxNode } from '../parser.js';
import type { NodeKinds } from './node-kinds.js';
import { type Budget, scanLeaves } from './tree-scan.js';

/** Halstead's base counts and the measures derived from them. */
export interface HalsteadMetrics {
  /** n1: distinct operators. */
  readonly distinctOperators: number;
  /** n2: distinct operands. */
  readonly distinctOperands: number;
  /** N1: operator occurrences. */
  readonly totalOperators: number;
  /** N2: operand occurrences. */
  readonly totalOperands: number;
  /** n = n1 + n2. */
  readonly vocabulary: number;
  /** N = N1 + N2. */
  readonly length: number;
  /** V = N · log2(n) (0 when n < 2). */
  readonly volume: number;
  /** D = (n1 / 2) · (N2 / n2) (0 when n2 = 0). */
  readonly difficulty: number;
  /** E = D · V. */
  readonly effort: number;
}

/** Halstead's measures from the four base counts. */
export function halsteadFromCounts(
  n1: number,
  n2: number,
  N1: number,
  N2: number,
): HalsteadMetrics {
  const vocabulary = n1 + n2;
  const length = N1 + N2;
  const volume = vocabulary < 2 ? 0 : length * Math.log2(vocabulary);
  const difficulty = n2 === 0 ? 0 : (n1 / 2) * (N2 / n2);
  return {
    distinctOperators: n1,
    distinctOperands: n2,
    totalOperators: N1,
    totalOperands: N2,
    vocabulary,
    length,
    volume,
    difficulty,
    effort: difficulty * volume,
  };
}

/** Halstead's measures of the code under `root`, within the step budget. */
export function halsteadOf(root: SyntaxNode, kinds: NodeKinds, budget: Budget): HalsteadMetrics {
  const operators = new Set<string>();
  const operands = new Set<string>();
  let N1 = 0;
  let N2 = 0;
  scanLeaves(root, kinds, budget, (node, role) => {
    if (role === 'operator') {
      N1 += 1;
      operators.add(node.type);
    } else {
      N2 += 1;
      operands.add(node.text);
    }
  });
  return halsteadFromCounts(operators.size, operands.size, N1, N2);
}

/**
 * The maintainability index, normalised to 0–100 (the Visual Studio variant):
 * MI = max(0, (171 − 5.2·ln(V) − 0.23·G − 16.2·ln(SLOC)) · 100 / 171), with V the Halstead
 * volume, G the cyclomatic complexity; V and SLOC below 1 are taken as 1 (ln 1 = 0).
 */
export function maintainabilityIndex(volume: number, cyclomatic: number, sloc: number): number {
  const raw =
    171 -
    5.2 * Math.log(Math.max(1, volume)) -
    0.23 * cyclomatic -
    16.2 * Math.log(Math.max(1, sloc));
  return Math.min(100, Math.max(0, (raw * 100) / 171));
}
