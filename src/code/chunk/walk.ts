// One pass over a syntax tree's interesting nodes: finds declarations (only at top level and inside
// containers, never inside function bodies), attributes every identifier and call to the
// innermost declaration, and collects imports. Must not slice the source or build chunk text.
import type { SyntaxNode, SyntaxTree } from '../parser.js';
import type { DeclRule, GrammarSpec } from './grammar-table.js';
import { firstStringArgument } from './imports.js';
import { nameField, simpleName } from './names.js';
import type { ChunkKind } from './types.js';

/** A declaration as the walker saw it: ranges and indices, no text yet. */
export interface RawDecl {
  kind: ChunkKind;
  symbol: string;
  name: string;
  container: boolean;
  topLevel: boolean;
  /** 0-based rows of the declaration including its wrappers (export, decorators, template). */
  startRow: number;
  endRow: number;
  startIndex: number;
  endIndex: number;
  signatureStart: number;
  /** Where the signature ends: the body's start, or null for the end of its first line. */
  signatureEnd: number | null;
  bodyStart: number | null;
  bodyEnd: number | null;
  children: RawDecl[];
  calls: Set<string>;
  refs: Set<string>;
}

/** An identifier or call outside every declaration (top-level code), with its row. */
export interface TopRef {
  row: number;
  name: string;
  call: boolean;
}

/** What one walk found. */
export interface WalkResult {
  decls: RawDecl[];
  top: TopRef[];
  imports: string[];
}

/** The bounds the walker honours. */
export interface WalkLimits {
  maxCalls: number;
  maxReferences: number;
  maxImports: number;
}

interface Frame {
  decl: RawDecl;
  /** End offset of the declaration node itself (not its wrappers). */
  end: number;
}

interface State {
  spec: GrammarSpec;
  limits: WalkLimits;
  decls: RawDecl[];
  top: TopRef[];
  imports: Set<string>;
  stack: Frame[];
  /** Nodes starting before this offset are inside an import statement already read. */
  skipUntil: number;
}

const CONTAINERS = new Set<ChunkKind>([
  'class',
  'interface',
  'struct',
  'enum',
  'trait',
  'impl',
  'module',
]);
const METHOD_OWNERS = new Set<ChunkKind>(['class', 'interface', 'struct', 'enum', 'trait', 'impl']);
const MAX_TOP_REFS = 20_000;

/** The last row a node really occupies (a node ending at column 0 ends on the row before). */
export function lastRow(node: SyntaxNode): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

/**
 * Walks `tree` once with `spec`; see the file header. The grammar's interesting node types are
 * fetched in one call (document order), which is much cheaper than stepping a cursor over every
 * node from JavaScript; nesting is tracked by offsets.
 */
export function walkTree(tree: SyntaxTree, spec: GrammarSpec, limits: WalkLimits): WalkResult {
  const st: State = {
    spec,
    limits,
    decls: [],
    top: [],
    imports: new Set(),
    stack: [],
    skipUntil: -1,
  };
  for (const node of tree.rootNode.descendantsOfType(spec.interesting)) {
    if (node === null || node.startIndex < st.skipUntil) continue;
    const stack = st.stack;
    while (stack.length > 0 && (stack[stack.length - 1]?.end ?? 0) <= node.startIndex) stack.pop();
    visit(node, st);
  }
  return { decls: st.decls, top: st.top, imports: [...st.imports] };
}

/** Handles one node of an interesting type. */
function visit(node: SyntaxNode, st: State): void {
  const type = node.type;
  const frame = st.stack[st.stack.length - 1];
  if (st.spec.idents.has(type)) {
    addRef(st, frame, node.text, node.startPosition.row, false);
    return;
  }
  const importRule = st.spec.imports.get(type);
  if (importRule !== undefined) {
    const found = importRule(node);
    for (const specifier of found) addImport(st, specifier);
    if (found.length > 0) {
      st.skipUntil = node.endIndex;
      return;
    }
  }
  const calleeField = st.spec.calls.get(type);
  if (calleeField !== undefined) visitCall(st, frame, node, calleeField);
  if (frame !== undefined && !frame.decl.container) return;
  const rule = st.spec.decls.get(type);
  const decl = rule === undefined ? null : makeDecl(node, rule, frame?.decl, st.spec);
  if (decl === null) return;
  st.decls.push(decl);
  frame?.decl.children.push(decl);
  st.stack.push({ decl, end: node.endIndex });
}

function visitCall(
  st: State,
  frame: Frame | undefined,
  node: SyntaxNode,
  field: string | null,
): void {
  const callee = field === null ? node.namedChild(0) : node.childForFieldName(field);
  const name = callee?.type === 'import' ? 'import' : simpleName(callee, st.spec.idents);
  if (name === null) return;
  if (st.spec.importCalls.has(name)) {
    const specifier = firstStringArgument(node);
    if (specifier !== null) addImport(st, specifier);
  }
  addRef(st, frame, name, node.startPosition.row, true);
}

function addImport(st: State, specifier: string): void {
  if (specifier !== '' && st.imports.size < st.limits.maxImports) st.imports.add(specifier);
}

function addRef(
  st: State,
  frame: Frame | undefined,
  name: string,
  row: number,
  call: boolean,
): void {
  if (frame === undefined) {
    if (st.top.length < MAX_TOP_REFS) st.top.push({ row, name, call });
    return;
  }
  const set = call ? frame.decl.calls : frame.decl.refs;
  if (set.size < (call ? st.limits.maxCalls : st.limits.maxReferences * 2)) set.add(name);
}

/** The outermost wrapper of `node` (export, decorators, template) and where its signature starts. */
function unwrap(node: SyntaxNode, spec: GrammarSpec): { outer: SyntaxNode; signature: SyntaxNode } {
  let outer = node;
  let signature = node;
  for (let i = 0; i < 4; i++) {
    const parent = outer.parent;
    const rule = parent === null ? undefined : spec.wrappers.get(parent.type);
    if (parent === null || rule === undefined) break;
    if (rule.when === 'only' && parent.namedChildCount !== 1) break;
    if (rule.when === 'last' && parent.lastNamedChild?.id !== outer.id) break;
    outer = parent;
    if (rule.signature) signature = parent;
  }
  return { outer, signature };
}

function makeDecl(
  node: SyntaxNode,
  rule: DeclRule,
  owner: RawDecl | undefined,
  spec: GrammarSpec,
): RawDecl | null {
  const declared = typeof rule.kind === 'function' ? rule.kind(node) : rule.kind;
  if (declared === null) return null;
  const body = rule.body === undefined ? node.childForFieldName('body') : rule.body(node);
  if (rule.needsBody === true && body === null) return null;
  const name = (rule.name ?? nameField)(node)?.replace(/\s+/g, '');
  if (name === undefined || name === '') return null;
  const kind =
    declared === 'function' && owner !== undefined && METHOD_OWNERS.has(owner.kind)
      ? 'method'
      : declared;
  const { outer, signature } = unwrap(node, spec);
  return {
    kind,
    symbol: owner === undefined ? name : `${owner.symbol}.${name}`,
    name: name.slice(name.lastIndexOf('.') + 1),
    container: CONTAINERS.has(kind),
    topLevel: owner === undefined,
    startRow: outer.startPosition.row,
    endRow: lastRow(outer),
    startIndex: outer.startIndex,
    endIndex: outer.endIndex,
    signatureStart: signature.startIndex,
    signatureEnd: rule.oneLineSignature === true ? null : (body?.startIndex ?? null),
    bodyStart: body?.startIndex ?? null,
    bodyEnd: body?.endIndex ?? null,
    children: [],
    calls: new Set(),
    refs: new Set(),
  };
}
