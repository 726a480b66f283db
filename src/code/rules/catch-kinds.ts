// The anatomy of a catch handler in each grammar: its node types, its body, the name it binds
// the error to and the types it catches. Read by the error-handling rules; pure tree reading,
// no judgement about what is good handling.
import type { CodeLanguage } from '../languages.js';
import type { SyntaxNode } from '../parser.js';
import { COMMENT_TYPES } from './syntax-kinds.js';

/** What the error-handling rules need to read one grammar's catch handlers. */
export interface CatchKinds {
  readonly catches: readonly string[];
  /** The name the handler binds the error to (`e` in `catch (e)`, PHP `$e`), if any. */
  binding(node: SyntaxNode): string | null;
  /** The caught types' last name segments; `*` for a handler of everything (Python `except:`). */
  types(node: SyntaxNode): string[];
}

const named = (node: SyntaxNode | null): SyntaxNode[] =>
  node === null ? [] : node.namedChildren.filter((c): c is SyntaxNode => c !== null);

const field = (node: SyntaxNode | null, name: string): SyntaxNode | null =>
  node?.childForFieldName(name) ?? null;

const lastSegment = (text: string): string => text.split(/::|\\|\./).pop() ?? text;

/** Names of the type nodes under `node` (any depth), last segment each. */
function typeNames(node: SyntaxNode | null, types: readonly string[]): string[] {
  if (node === null) return [];
  if (types.includes(node.type)) return [lastSegment(node.text)];
  return node
    .descendantsOfType([...types])
    .filter((n): n is SyntaxNode => n !== null)
    .map((n) => lastSegment(n.text));
}

/** The handler's statements, comments included ([] when empty); the body or its direct text. */
export function handlerStatements(node: SyntaxNode): SyntaxNode[] {
  const body =
    field(node, 'body') ??
    named(node).find((c) => c.type === 'block' || c.type === 'statements') ??
    null;
  const comments = named(node).filter((c) => COMMENT_TYPES.includes(c.type));
  return [...named(body), ...comments];
}

const JS_LIKE: CatchKinds = {
  catches: ['catch_clause'],
  binding(node) {
    const p = field(node, 'parameter');
    return p?.type === 'identifier' ? p.text : null;
  },
  types: () => [],
};

function pythonTarget(node: SyntaxNode): SyntaxNode | null {
  return named(node).find((c) => c.type !== 'block' && !COMMENT_TYPES.includes(c.type)) ?? null;
}

const PYTHON: CatchKinds = {
  catches: ['except_clause'],
  binding(node) {
    const as = pythonTarget(node);
    if (as?.type !== 'as_pattern') return null;
    const target = named(field(as, 'alias'))[0];
    return target?.type === 'identifier' ? target.text : null;
  },
  types(node) {
    const target = pythonTarget(node);
    if (target === null) return ['*'];
    const caught = target.type === 'as_pattern' ? (named(target)[0] ?? null) : target;
    const items = caught?.type === 'tuple' ? named(caught) : caught === null ? [] : [caught];
    return items.map((t) => lastSegment(t.text));
  },
};

const JAVA: CatchKinds = {
  catches: ['catch_clause'],
  binding: (node) =>
    field(named(node).find((c) => c.type === 'catch_formal_parameter') ?? null, 'name')?.text ??
    null,
  types: (node) =>
    typeNames(named(node).find((c) => c.type === 'catch_formal_parameter') ?? null, [
      'type_identifier',
      'scoped_type_identifier',
    ]),
};

const CPP: CatchKinds = {
  catches: ['catch_clause'],
  binding(node) {
    const param = named(field(node, 'parameters')).find((c) => c.type === 'parameter_declaration');
    let declarator = field(param ?? null, 'declarator');
    for (let i = 0; declarator !== null && declarator.type !== 'identifier' && i < 8; i += 1) {
      declarator = field(declarator, 'declarator') ?? named(declarator)[0] ?? null;
    }
    return declarator?.text ?? null;
  },
  types: () => [],
};

const CSHARP: CatchKinds = {
  catches: ['catch_clause'],
  binding: (node) =>
    field(named(node).find((c) => c.type === 'catch_declaration') ?? null, 'name')?.text ?? null,
  types: () => [],
};

const PHP: CatchKinds = {
  catches: ['catch_clause'],
  binding: (node) => field(node, 'name')?.text ?? null,
  types: (node) => typeNames(field(node, 'type'), ['name', 'qualified_name']),
};

const RUBY: CatchKinds = {
  catches: ['rescue'],
  binding: (node) => named(field(node, 'variable'))[0]?.text ?? null,
  types: (node) => typeNames(field(node, 'exceptions'), ['constant', 'scope_resolution']),
};

const KOTLIN: CatchKinds = {
  catches: ['catch_block'],
  binding: (node) => named(node).find((c) => c.type === 'simple_identifier')?.text ?? null,
  types: (node) => {
    const type = named(node).find((c) => c.type === 'user_type') ?? null;
    const last = named(type)
      .filter((c) => c.type === 'type_identifier')
      .pop();
    return last === undefined ? [] : [last.text];
  },
};

/** Catch anatomy per language; a language missing here has no error-handling rules. */
export const CATCH_KINDS: Partial<Record<CodeLanguage, CatchKinds>> = {
  typescript: JS_LIKE,
  tsx: JS_LIKE,
  javascript: JS_LIKE,
  python: PYTHON,
  java: JAVA,
  cpp: CPP,
  csharp: CSHARP,
  ruby: RUBY,
  php: PHP,
  kotlin: KOTLIN,
};

/** Identifier node types a use of the bound error can be (`{ err }` and `"$e"` included). */
export const IDENTIFIER_TYPES: readonly string[] = [
  'identifier',
  'simple_identifier',
  'variable_name',
  'shorthand_property_identifier',
  'interpolated_identifier',
];

const THROW_TYPES = ['throw_statement', 'throw_expression', 'raise_statement', 'jump_expression'];
const RUBY_RAISE: ReadonlySet<string> = new Set(['raise', 'fail']);

/** A throw/raise node, or a Ruby `raise`/`fail` (an identifier or a receiverless call). */
function isThrow(node: SyntaxNode): boolean {
  if (node.type === 'jump_expression') return node.children[0]?.type === 'throw';
  if (THROW_TYPES.includes(node.type)) return true;
  if (node.type === 'identifier') return RUBY_RAISE.has(node.text) && node.parent?.type !== 'call';
  if (node.type === 'call') {
    const method = node.childForFieldName('method');
    return node.childForFieldName('receiver') === null && RUBY_RAISE.has(method?.text ?? '');
  }
  return false;
}

/** True when any of `statements` throws or raises (at any depth). */
export function rethrows(statements: readonly SyntaxNode[], language: CodeLanguage): boolean {
  const extra = language === 'ruby' ? ['identifier', 'call'] : [];
  return statements.some(
    (s) =>
      isThrow(s) ||
      s.descendantsOfType([...THROW_TYPES, ...extra]).some((n) => n !== null && isThrow(n)),
  );
}
