// Cyclomatic (McCabe) and cognitive (SonarSource, G. Ann Campbell) complexity and the maximum
// nesting depth of one function or a whole file, in one iterative walk of its syntax tree.
// Node types come from node-kinds.ts; what counts is documented in docs/code-context.md.
import type { SyntaxNode } from '../parser.js';
import {
  calleeName,
  functionName,
  isDefaultCase,
  isLabelledJump,
  logicalRuns,
  logicalTokens,
} from './constructs.js';
import type { NodeKinds } from './node-kinds.js';
import type { Budget } from './tree-scan.js';

/** The control-flow measures of one function or file. */
export interface ComplexityMetrics {
  /** 1 + decision points. */
  readonly cyclomatic: number;
  /** SonarSource cognitive complexity. */
  readonly cognitive: number;
  /** Deepest nesting level reached (control structures, nested functions and lambdas). */
  readonly maxNesting: number;
}

interface Frame {
  readonly node: SyntaxNode;
  readonly nesting: number;
  readonly inFn: boolean;
  /** The innermost enclosing named function, for recursion. */
  readonly fnName: string | null;
  /** 'else' marks an else part of an if; 'elseIf' an if reached through one. */
  readonly mode?: 'else' | 'elseIf';
}

class Counter {
  cyclomatic = 1;
  cognitive = 0;
  maxNesting = 0;
  readonly stack: Frame[] = [];

  constructor(readonly kinds: NodeKinds) {}

  push(frame: Frame): void {
    if (frame.nesting > this.maxNesting) this.maxNesting = frame.nesting;
    this.stack.push(frame);
  }

  /** Pushes every child of `frame.node` at `nesting` (inside `fnName` when given). */
  children(frame: Frame, nesting: number, fnName: string | null = frame.fnName): void {
    const inFn = frame.inFn || fnName !== frame.fnName;
    // Anonymous tokens need no frame: the nodes that read them (binaries, ifs) do so directly.
    for (let i = frame.node.namedChildCount - 1; i >= 0; i -= 1) {
      const child = frame.node.namedChild(i);
      if (child !== null) this.push({ node: child, nesting, inFn, fnName });
    }
  }
}

/**
 * The complexity of `root`: a function node (its own name given for recursion) or a file's
 * root node (functions in it start at nesting 0), one budget step per node.
 */
export function complexityOf(
  root: SyntaxNode,
  kinds: NodeKinds,
  fn: { readonly name: string | null } | null,
  budget: Budget,
): ComplexityMetrics {
  const c = new Counter(kinds);
  c.children(
    { node: root, nesting: 0, inFn: fn !== null, fnName: simpleName(fn?.name ?? null) },
    0,
  );
  while (budget.remaining > 0) {
    const frame = c.stack.pop();
    if (frame === undefined) break;
    budget.remaining -= 1;
    if (frame.mode === 'else') elsePart(c, frame);
    else visit(c, frame);
  }
  return { cyclomatic: c.cyclomatic, cognitive: c.cognitive, maxNesting: c.maxNesting };
}

function visit(c: Counter, frame: Frame): void {
  const { node, nesting } = frame;
  // Anonymous tokens may share a name with a node type (Ruby's `if` keyword in an `if` node).
  if (!node.isNamed) return;
  const k = c.kinds;
  const t = node.type;
  if (k.functions.has(t) || k.lambdas.has(t)) {
    const fnName = k.functions.has(t) ? simpleName(functionName(node)) : frame.fnName;
    c.children({ ...frame, inFn: true }, frame.inFn ? nesting + 1 : nesting, fnName);
  } else if (k.ifs.has(t) || k.elseIfs.has(t)) {
    ifNode(c, frame);
  } else if (k.ternaries.has(t) || k.loops.has(t) || k.catches.has(t)) {
    c.cyclomatic += 1;
    c.cognitive += 1 + nesting;
    c.children(frame, nesting + 1);
  } else if (k.switches.has(t)) {
    c.cognitive += 1 + nesting;
    c.children(frame, nesting + 1);
  } else {
    if (k.cases.has(t) && !isDefaultCase(node)) c.cyclomatic += 1;
    if ((k.jumps.has(t) && isLabelledJump(node)) || k.gotos.has(t)) c.cognitive += 1;
    if (k.binaries.has(t)) {
      c.cyclomatic += logicalTokens(node, true);
      c.cognitive += logicalRuns(node, k);
    }
    if (frame.fnName !== null && k.calls.has(t) && calleeName(node) === frame.fnName) {
      c.cognitive += 1;
    }
    c.children(frame, nesting);
  }
}

/** An if (or elif/elsif): its condition at the if's nesting, bodies one deeper, else parts aside. */
function ifNode(c: Counter, frame: Frame): void {
  const { node, nesting } = frame;
  c.cyclomatic += 1;
  c.cognitive += frame.mode === 'elseIf' ? 1 : 1 + nesting;
  let prev: SyntaxNode | null = null;
  for (let i = 0; i < node.childCount; i += 1) {
    const child = node.child(i);
    if (child === null) continue;
    const base = { inFn: frame.inFn, fnName: frame.fnName, node: child };
    if (isElsePart(c.kinds, child, prev)) c.push({ ...base, nesting, mode: 'else' });
    else if (node.fieldNameForChild(i) === 'condition') c.push({ ...base, nesting });
    else c.push({ ...base, nesting: nesting + 1 });
    prev = child;
  }
}

function isElsePart(k: NodeKinds, child: SyntaxNode, prev: SyntaxNode | null): boolean {
  if (child.isNamed && (k.elses.has(child.type) || k.elseIfs.has(child.type))) return true;
  return prev !== null && !prev.isNamed && prev.type === 'else';
}

/** An else part: an else-if (+1, no nesting increment) or a plain else (+1). */
function elsePart(c: Counter, frame: Frame): void {
  const k = c.kinds;
  const inner = elseIfTarget(k, frame.node);
  if (inner !== null) {
    c.push({ ...frame, node: inner, mode: 'elseIf' });
    return;
  }
  c.cognitive += 1;
  if (k.elses.has(frame.node.type)) c.children(frame, frame.nesting + 1);
  else
    c.push({
      node: frame.node,
      nesting: frame.nesting + 1,
      inFn: frame.inFn,
      fnName: frame.fnName,
    });
}

/** The if that an else part introduces (`else if`), or null for a plain else. */
function elseIfTarget(k: NodeKinds, node: SyntaxNode): SyntaxNode | null {
  if (!node.isNamed) return null;
  if (k.ifs.has(node.type) || k.elseIfs.has(node.type)) return node;
  const wrapper = k.elses.has(node.type) || node.type === 'control_structure_body';
  if (!wrapper) return null;
  const named = node.namedChildren.filter(
    (n): n is SyntaxNode => n !== null && !n.type.includes('comment'),
  );
  const only = named.length === 1 ? named[0] : undefined;
  if (only === undefined || !k.ifs.has(only.type)) return null;
  // A wrapper holding braces or other tokens besides `else` is a block, not an else-if.
  const tokens = node.children.filter((n) => n !== null && !n.isNamed && n.type !== 'else');
  return tokens.length === 0 ? only : null;
}

/** A function's own name without its qualifier (`A::run` → `run`), for recursion. */
export function simpleName(name: string | null): string | null {
  if (name === null) return null;
  const parts = name.split(/::|\.|->/);
  return parts[parts.length - 1] ?? null;
}
