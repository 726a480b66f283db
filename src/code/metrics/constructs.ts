// Small readers of single syntax nodes shared by the metrics walkers: a function's name and
// parameters, a call's callee, default cases, labelled jumps and logical-operator sequences.
// Each looks at one node and its near children only (bounded); no counting across a tree.
import type { SyntaxNode } from '../parser.js';
import type { NodeKinds } from './node-kinds.js';

const NAME_TYPES: ReadonlySet<string> = new Set([
  'identifier',
  'simple_identifier',
  'field_identifier',
  'property_identifier',
  'qualified_identifier',
  'destructor_name',
  'operator_name',
  'name',
  'constant',
]);

/** The name a function declares, following C declarators (`int *A::f(…)` → `A::f`). */
export function functionName(node: SyntaxNode): string | null {
  let cur: SyntaxNode | null = node;
  for (let depth = 0; cur !== null && depth < 8; depth += 1) {
    const named = cur.childForFieldName('name');
    if (named !== null) return named.text;
    const declarator: SyntaxNode | null = cur.childForFieldName('declarator');
    if (declarator === null) break;
    if (NAME_TYPES.has(declarator.type)) return declarator.text;
    cur = declarator;
  }
  const direct = node.namedChildren.find((n) => n !== null && NAME_TYPES.has(n.type));
  return direct?.text ?? null;
}

const ACCESSORS: ReadonlySet<string> = new Set(['accessor_declaration', 'getter', 'setter']);

/** A name for a function the grammar leaves unnamed: `P.get` for accessors, `constructor`. */
export function implicitName(node: SyntaxNode): string | null {
  if (node.type === 'secondary_constructor') return 'constructor';
  if (!ACCESSORS.has(node.type)) return null;
  const keyword = node.children.find((n) => n !== null && !n.isNamed)?.type ?? node.type;
  // Kotlin puts a getter beside its property_declaration; C# nests accessors in the property.
  const before = node.previousNamedSibling;
  let owner = before?.type === 'property_declaration' ? before : node.parent;
  for (let depth = 0; owner !== null && depth < 3; depth += 1) {
    const variable = owner.namedChildren.find((n) => n?.type === 'variable_declaration');
    const named = owner.childForFieldName('name') ?? variable?.namedChild(0) ?? null;
    if (named !== null) return `${named.text}.${keyword}`;
    owner = owner.parent;
  }
  return keyword;
}

/**
 * The name a lambda is bound to (`const f = () => …`, `f = lambda: …`, `{ f: () => … }`,
 * Kotlin's `val f = { … }`, C#'s `Func<int> f = () => …`), looking two levels up; else null.
 */
export function boundName(node: SyntaxNode): string | null {
  let child = node;
  let parent = node.parent;
  for (let depth = 0; parent !== null && depth < 2; depth += 1) {
    const field = ['name', 'left', 'pattern', 'key']
      .map((f) => parent?.childForFieldName(f) ?? null)
      .find((n) => n !== null && n.id !== child.id);
    const variable = parent.namedChildren
      .find((n) => n?.type === 'variable_declaration')
      ?.namedChild(0);
    const target = field ?? variable ?? null;
    if (target !== null && target.namedChildCount === 0) return target.text;
    child = parent;
    parent = parent.parent;
  }
  return null;
}

const EXCLUDED_PARAMETER = /comment|attribute|annotation|modifier|self_parameter/;

/** How many parameters `fn` declares (Go's `a, b int` is two; `self`, `cls` and `(void)` none). */
export function parameterCount(fn: SyntaxNode, kinds: NodeKinds): number {
  const list = parameterList(fn, kinds);
  if (list === null) return fn.childForFieldName('parameter') === null ? 0 : 1;
  let count = 0;
  list.namedChildren.forEach((p, index) => {
    if (p === null || EXCLUDED_PARAMETER.test(p.type)) return;
    if (kinds.parameters !== undefined && !kinds.parameters.has(p.type)) return;
    if (p.text === 'void') return;
    if (index === 0 && (p.text === 'self' || p.text === 'cls')) return;
    const names =
      p.type === 'parameter_declaration'
        ? p.namedChildren.filter((n) => n?.type === 'identifier')
        : [];
    count += Math.max(1, names.length);
  });
  return count;
}

function parameterList(fn: SyntaxNode, kinds: NodeKinds): SyntaxNode | null {
  let cur: SyntaxNode | null = fn;
  for (let depth = 0; cur !== null && depth < 8; depth += 1) {
    const list = cur.namedChildren.find((n) => n !== null && kinds.parameterLists.has(n.type));
    if (list !== undefined && list !== null) return list;
    cur = cur.childForFieldName('declarator');
  }
  return null;
}

const SELF: ReadonlySet<string> = new Set(['this', 'self', 'Self', '$this', 'static']);

/** The callee of a call when it is a plain name or a member of this/self, else null. */
export function calleeName(call: SyntaxNode): string | null {
  const receiver =
    call.childForFieldName('receiver') ??
    call.childForFieldName('object') ??
    call.childForFieldName('scope');
  const method = call.childForFieldName('method') ?? call.childForFieldName('name');
  if (method !== null && call.childForFieldName('function') === null) {
    return receiver === null || SELF.has(receiver.text) ? method.text : null;
  }
  const fn = call.childForFieldName('function') ?? call.namedChild(0);
  if (fn === null) return null;
  if (fn.namedChildCount === 0) return fn.text;
  const first = fn.namedChild(0);
  const last = fn.namedChild(fn.namedChildCount - 1);
  if (first === null || last === null || !SELF.has(first.text)) return null;
  return last.text.replace(/^\W+/, '');
}

const DEFAULT_TYPES: ReadonlySet<string> = new Set([
  'switch_default',
  'default_case',
  'default_switch_label',
  'default_statement',
  'match_default_expression',
]);

/** A default case (`default:`, `else ->`, `_ =>`, `case _:`), which adds no path in McCabe. */
export function isDefaultCase(node: SyntaxNode): boolean {
  if (DEFAULT_TYPES.has(node.type)) return true;
  const first = node.child(0);
  if (first !== null && !first.isNamed && (first.type === 'default' || first.type === 'else'))
    return true;
  const pattern = node.namedChild(0);
  return pattern !== null && (pattern.type === 'discard' || pattern.text === '_');
}

const LABELS: ReadonlySet<string> = new Set([
  'statement_identifier',
  'label_name',
  'loop_label',
  'identifier',
  'label',
]);

/** A break or continue that names a label (`break outer`, `continue 'a`, `break@outer`). */
export function isLabelledJump(node: SyntaxNode): boolean {
  const first = node.child(0);
  if (first === null) return false;
  if (first.type === 'break@' || first.type === 'continue@') return true;
  if (first.type !== 'break' && first.type !== 'continue') return false;
  return node.namedChildren.some((n) => n !== null && LABELS.has(n.type));
}

/** Logical operator tokens; `and`/`or` count as `&&`/`||`. */
const LOGICAL: Readonly<Record<string, string>> = { '&&': '&&', '||': '||', and: '&&', or: '||' };
/** Null-coalescing tokens: decision points for McCabe, not for cognitive complexity. */
const COALESCE: ReadonlySet<string> = new Set(['??', '?:']);

/** How many logical (and, when asked, null-coalescing) operator tokens `node` holds directly. */
export function logicalTokens(node: SyntaxNode, coalesce: boolean): number {
  let n = 0;
  for (const child of node.children) {
    if (child === null || child.isNamed) continue;
    if (LOGICAL[child.type] !== undefined || (coalesce && COALESCE.has(child.type))) n += 1;
  }
  return n;
}

function isLogical(node: SyntaxNode | null, kinds: NodeKinds): boolean {
  return node !== null && kinds.binaries.has(node.type) && logicalTokens(node, false) > 0;
}

const PARENS = /^parenthesized_/;

/**
 * Cognitive increments of a logical expression: one per run of like operators in reading order
 * (`a && b && c || d` → 2), counted once at the outermost logical node (parentheses are
 * transparent); 0 for an inner node or a non-logical one.
 */
export function logicalRuns(node: SyntaxNode, kinds: NodeKinds): number {
  if (!isLogical(node, kinds)) return 0;
  let up = node.parent;
  while (up !== null && PARENS.test(up.type)) up = up.parent;
  if (isLogical(up, kinds)) return 0;
  const ops: string[] = [];
  const stack: SyntaxNode[] = [node];
  for (let steps = 0; stack.length > 0 && steps < 100_000; steps += 1) {
    const cur = stack.pop();
    if (cur === undefined) break;
    const op = cur.isNamed ? undefined : LOGICAL[cur.type];
    if (op !== undefined) ops.push(op);
    else if (cur === node || isLogical(cur, kinds) || PARENS.test(cur.type)) {
      for (let i = cur.childCount - 1; i >= 0; i -= 1) {
        const child = cur.child(i);
        if (child !== null) stack.push(child);
      }
    }
  }
  return ops.filter((op, i) => i === 0 || ops[i - 1] !== op).length;
}
