// Bounded, iterative scans of a syntax tree (a cursor, never recursion, so deep trees cannot
// overflow the stack): the Halstead leaf classification and the rows that hold code or
// comments. Reads the tree only; knows nothing of functions or complexity.
import type { SyntaxNode } from '../parser.js';
import type { NodeKinds } from './node-kinds.js';

/** A shared allowance of node steps, so one file's analysis does bounded work. */
export interface Budget {
  remaining: number;
}

/** Comment nodes in every grammar have `comment` in their type (`line_comment`, …). */
export function isComment(type: string): boolean {
  return type.includes('comment');
}

/** A leaf for Halstead: an operator (anonymous token) or an operand (named leaf, atom). */
export type LeafRole = 'operator' | 'operand';

/** The Halstead role of a node, or null when it is not a leaf the count looks at. */
function roleOf(node: SyntaxNode, kinds: NodeKinds): LeafRole | null {
  if (isComment(node.type) || node.startIndex === node.endIndex) return null;
  if (node.isNamed && kinds.atoms.has(node.type)) return 'operand';
  if (node.childCount > 0) return null;
  if (node.isNamed) return kinds.ignored.has(node.type) ? null : 'operand';
  if (node.type.trim() === '' || CLOSERS.has(node.type)) return null;
  return 'operator';
}

/** Closing brackets: a pair counts once, through its opening token. */
const CLOSERS: ReadonlySet<string> = new Set([')', ']', '}', 'end']);

/**
 * Calls `visit` for every Halstead leaf under `root` (atoms whole, comments skipped), one
 * budget step per node; stops early when the budget runs out.
 */
export function scanLeaves(
  root: SyntaxNode,
  kinds: NodeKinds,
  budget: Budget,
  visit: (node: SyntaxNode, role: LeafRole) => void,
): void {
  const cursor = root.walk();
  try {
    for (;;) {
      budget.remaining -= 1;
      const node = cursor.currentNode;
      const role = roleOf(node, kinds);
      if (role !== null) visit(node, role);
      const descend = role === null && !isComment(node.type) && budget.remaining > 0;
      if (descend && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
      if (budget.remaining <= 0) return;
    }
  } finally {
    cursor.delete();
  }
}

/** A token that makes its row a source line: any non-blank leaf or atom (brackets too). */
function isCodeToken(node: SyntaxNode, kinds: NodeKinds): boolean {
  if (node.startIndex === node.endIndex) return false;
  if (node.isNamed) return node.childCount === 0 || kinds.atoms.has(node.type);
  return node.childCount === 0 && node.type.trim() !== '';
}

/** Per row: 1 when a code token touches it, 2 when only a comment does, 0 when blank. */
export function rowKinds(
  root: SyntaxNode,
  kinds: NodeKinds,
  rows: number,
  budget: Budget,
): Uint8Array {
  const marks = new Uint8Array(rows);
  const mark = (from: number, to: number, value: number): void => {
    for (let r = Math.max(0, from); r <= to && r < rows; r += 1) {
      if (marks[r] !== 1) marks[r] = value;
    }
  };
  const cursor = root.walk();
  try {
    for (;;) {
      budget.remaining -= 1;
      const node = cursor.currentNode;
      const comment = isComment(node.type);
      if (comment) mark(node.startPosition.row, node.endPosition.row, 2);
      else if (isCodeToken(node, kinds)) mark(node.startPosition.row, node.endPosition.row, 1);
      const atom = node.isNamed && kinds.atoms.has(node.type);
      if (!comment && !atom && budget.remaining > 0 && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return marks;
      }
      if (budget.remaining <= 0) return marks;
    }
  } finally {
    cursor.delete();
  }
}
