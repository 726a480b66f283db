// Call sites in one syntax tree, the same shape for every grammar: the receiver as written,
// the called name, positional arguments and keyword arguments. Shared by the rules that look
// at what is called (debug prints, eval, shell, SQL, hashes); reads the tree, never reparses.
import type { CodeLanguage } from '../languages.js';
import type { SyntaxNode } from '../parser.js';

/** One call (or `new`) in the tree. */
export interface CallSite {
  readonly node: SyntaxNode;
  /** The object or scope before the name, whitespace removed (`os`, `Digest::MD5`), or null. */
  readonly receiver: string | null;
  /** The receiver's node, when there is one. */
  readonly receiverNode: SyntaxNode | null;
  /** The called name (`system`, `getInstance`, `Function`, `dbg!`). */
  readonly name: string;
  /** `receiver.name` (or `receiver::name`, `name!`) as written, whitespace removed. */
  readonly callee: string;
  readonly args: readonly SyntaxNode[];
  /** Named arguments (`shell=True`, Kotlin `x = 1`), by name. */
  readonly keywords: ReadonlyMap<string, SyntaxNode>;
  /** A constructor call (`new Function(…)`, `new SHA1Managed()`). */
  readonly isNew: boolean;
}

const strip = (text: string): string => text.replace(/\s+/g, '');

function named(node: SyntaxNode | null): SyntaxNode[] {
  if (node === null) return [];
  return node.namedChildren.filter(
    (c): c is SyntaxNode => c !== null && !c.type.includes('comment'),
  );
}

/** Python keyword_argument / Kotlin and C# named arguments are keywords; wrappers unwrapped. */
function splitArgs(list: SyntaxNode | null): Pick<CallSite, 'args' | 'keywords'> {
  const args: SyntaxNode[] = [];
  const keywords = new Map<string, SyntaxNode>();
  for (const child of named(list)) {
    if (child.type === 'keyword_argument') {
      const value = child.childForFieldName('value');
      if (value !== null) keywords.set(child.childForFieldName('name')?.text ?? '', value);
      continue;
    }
    if (child.type === 'argument' || child.type === 'value_argument') {
      const parts = named(child);
      const value = parts[parts.length - 1];
      if (value === undefined) continue;
      const label = child.type === 'value_argument' && parts.length > 1 ? parts[0] : undefined;
      const name = child.childForFieldName('name') ?? label ?? null;
      if (name !== null && name !== value) keywords.set(name.text, value);
      else args.push(value);
      continue;
    }
    args.push(child);
  }
  return { args, keywords };
}

/** The receiver and name of a callee expression (member, selector, attribute, scope). */
interface Split {
  receiver: string | null;
  receiverNode: SyntaxNode | null;
  name: string;
}

function split(callee: SyntaxNode | null): Split {
  if (callee === null) return { receiver: null, receiverNode: null, name: '' };
  const object =
    callee.childForFieldName('object') ??
    callee.childForFieldName('operand') ??
    callee.childForFieldName('expression') ??
    callee.childForFieldName('path') ??
    callee.childForFieldName('scope') ??
    callee.childForFieldName('value') ??
    callee.childForFieldName('argument');
  const name =
    callee.childForFieldName('property') ??
    callee.childForFieldName('attribute') ??
    callee.childForFieldName('field') ??
    callee.childForFieldName('name');
  if (callee.type === 'navigation_expression') {
    const parts = named(callee);
    const suffix = parts[parts.length - 1];
    const head = parts.length === 2 ? (parts[0] ?? null) : null;
    const member = strip(suffix?.text ?? '').replace(/^[.?:]+/, '');
    return { receiver: head && strip(head.text), receiverNode: head, name: member };
  }
  if (object !== null && name !== null) {
    return { receiver: strip(object.text), receiverNode: object, name: name.text };
  }
  return { receiver: null, receiverNode: null, name: strip(callee.text) };
}

function site(
  node: SyntaxNode,
  callee: SyntaxNode | null,
  list: SyntaxNode | null,
  isNew = false,
): CallSite {
  const { receiver, receiverNode, name } = split(callee);
  const sep =
    callee?.type === 'scoped_identifier' || callee?.type === 'qualified_identifier' ? '::' : '.';
  const full = receiver === null ? name : `${receiver}${sep}${name}`;
  return { node, receiver, receiverNode, name, callee: full, isNew, ...splitArgs(list) };
}

type Reader = (node: SyntaxNode) => CallSite;

const field = (node: SyntaxNode, name: string): SyntaxNode | null => node.childForFieldName(name);

const byFunction: Reader = (n) => site(n, field(n, 'function'), field(n, 'arguments'));
const byConstructor: Reader = (n) =>
  site(n, field(n, 'constructor') ?? field(n, 'type'), field(n, 'arguments'), true);

function rubyCall(node: SyntaxNode): CallSite {
  const receiver = field(node, 'receiver');
  const method = field(node, 'method')?.text ?? '';
  const { args, keywords } = splitArgs(field(node, 'arguments'));
  const r = receiver === null ? null : strip(receiver.text);
  const callee = r === null ? method : `${r}.${method}`;
  return {
    node,
    receiver: r,
    receiverNode: receiver,
    name: method,
    callee,
    args,
    keywords,
    isNew: false,
  };
}

function kotlinCall(node: SyntaxNode): CallSite {
  const parts = named(node);
  const suffix = parts.find((p) => p.type === 'call_suffix') ?? null;
  const list =
    suffix === null ? null : (named(suffix).find((p) => p.type === 'value_arguments') ?? null);
  return site(node, parts[0] ?? null, list);
}

function phpCall(node: SyntaxNode): CallSite {
  if (node.type === 'function_call_expression') {
    const call = byFunction(node);
    const name = call.name.replace(/^\\/, '');
    return { ...call, name, callee: call.receiver === null ? name : call.callee };
  }
  if (node.type === 'object_creation_expression') {
    const parts = named(node);
    const type = parts.find((p) => p.type !== 'arguments') ?? null;
    return site(node, type, parts.find((p) => p.type === 'arguments') ?? null, true);
  }
  const receiver = field(node, 'object') ?? field(node, 'scope');
  const { args, keywords } = splitArgs(field(node, 'arguments'));
  const r = receiver === null ? null : strip(receiver.text);
  const name = field(node, 'name')?.text ?? '';
  const callee = r === null ? name : `${r}->${name}`;
  return { node, receiver: r, receiverNode: receiver, name, callee, args, keywords, isNew: false };
}

function macro(node: SyntaxNode): CallSite {
  const name = `${field(node, 'macro')?.text ?? ''}!`;
  const keywords = new Map<string, SyntaxNode>();
  return {
    node,
    receiver: null,
    receiverNode: null,
    name,
    callee: name,
    args: [],
    keywords,
    isNew: false,
  };
}

function javaCall(node: SyntaxNode): CallSite {
  if (node.type === 'object_creation_expression') return byConstructor(node);
  const object = field(node, 'object');
  const name = field(node, 'name')?.text ?? '';
  const r = object === null ? null : strip(object.text);
  const { args, keywords } = splitArgs(field(node, 'arguments'));
  const callee = r === null ? name : `${r}.${name}`;
  return { node, receiver: r, receiverNode: object, name, callee, args, keywords, isNew: false };
}

const JS: Readonly<Record<string, Reader>> = {
  call_expression: byFunction,
  new_expression: byConstructor,
};

/** The call node types of each grammar and how to read them. */
const READERS: Readonly<Record<CodeLanguage, Readonly<Record<string, Reader>>>> = {
  typescript: JS,
  tsx: JS,
  javascript: JS,
  python: { call: byFunction },
  go: { call_expression: byFunction },
  rust: { call_expression: byFunction, macro_invocation: macro },
  java: { method_invocation: javaCall, object_creation_expression: javaCall },
  c: { call_expression: byFunction },
  cpp: { call_expression: byFunction, new_expression: byConstructor },
  csharp: { invocation_expression: byFunction, object_creation_expression: byConstructor },
  ruby: { call: rubyCall },
  php: {
    function_call_expression: phpCall,
    member_call_expression: phpCall,
    nullsafe_member_call_expression: phpCall,
    scoped_call_expression: phpCall,
    object_creation_expression: phpCall,
  },
  kotlin: { call_expression: kotlinCall },
};

/** The call site `node` is, or null when it is not a call in `language`. */
export function callAt(node: SyntaxNode, language: CodeLanguage): CallSite | null {
  return READERS[language][node.type]?.(node) ?? null;
}

/** Every call site under `root`, in source order. */
export function callSites(root: SyntaxNode, language: CodeLanguage): CallSite[] {
  const readers = READERS[language];
  return root
    .descendantsOfType(Object.keys(readers))
    .filter((n): n is SyntaxNode => n !== null)
    .flatMap((n) => {
      const call = readers[n.type]?.(n) ?? null;
      return call === null ? [] : [call];
    });
}
