// The structure rules: named functions with an empty body and no comment (hygiene), and
// classes with more methods than a threshold (size). Function node types come from the metrics'
// table (NODE_KINDS); the class-like containers are listed here per grammar.
import type { CodeLanguage } from '../languages.js';
import { NODE_KINDS } from '../metrics/index.js';
import type { SyntaxNode } from '../parser.js';
import { COMMENT_TYPES } from './syntax-kinds.js';
import { DEFAULT_THRESHOLDS, type RawFinding, type Rule, type RuleContext } from './types.js';

const named = (node: SyntaxNode | null): SyntaxNode[] =>
  node === null ? [] : node.namedChildren.filter((c): c is SyntaxNode => c !== null);

function at(node: SyntaxNode, message: string): RawFinding {
  return { line: node.startPosition.row + 1, column: node.startPosition.column + 1, message };
}

/** The declared name of a function, class or impl block (as the grammar spells it). */
function nameOf(node: SyntaxNode): string {
  const name = node.childForFieldName('name') ?? node.childForFieldName('type');
  if (name !== null) return name.text;
  let declarator = node.childForFieldName('declarator');
  for (let i = 0; declarator !== null && i < 8; i += 1) {
    const inner = declarator.childForFieldName('declarator');
    if (inner === null) return declarator.text;
    declarator = inner;
  }
  const id = named(node).find((c) => c.type.endsWith('identifier') || c.type === 'constant');
  return id?.text ?? '<anonymous>';
}

/** Constructors, destructors and other functions whose empty body is the point. */
const CONSTRUCTOR_TYPES: ReadonlySet<string> = new Set([
  'constructor_declaration',
  'compact_constructor_declaration',
  'secondary_constructor',
  'destructor_declaration',
  'accessor_declaration',
  'getter',
  'setter',
]);
const CONSTRUCTOR_NAMES = /^(constructor|__init__|__construct|initialize|__del__)$/;

/** Containers whose methods are declarations or deliberate defaults (interfaces, traits). */
const INTERFACE_TYPES: ReadonlySet<string> = new Set([
  'interface_declaration',
  'interface_body',
  'trait_item',
  'trait_declaration',
]);

function exempt(fn: SyntaxNode, language: CodeLanguage): boolean {
  if (CONSTRUCTOR_TYPES.has(fn.type) || CONSTRUCTOR_NAMES.test(nameOf(fn))) return true;
  if (/noop/i.test(nameOf(fn))) return true;
  if (language === 'go' && fn.type === 'method_declaration') return true; // marker methods
  if ((language === 'c' || language === 'cpp') && fn.childForFieldName('type') === null) {
    return true; // C++ constructors and destructors have no return type
  }
  const decorators = fn.parent?.type === 'decorated_definition' ? fn.parent.text : '';
  if (/@\S*(abstract|overload)/.test(decorators)) return true;
  for (let p = fn.parent; p !== null; p = p.parent) {
    if (INTERFACE_TYPES.has(p.type)) return true;
    if (p.type === 'class_declaration' && p.children[0]?.type === 'interface') return true;
  }
  return false;
}

/** True when the function has a body of statements and it holds nothing (Python: `pass`). */
function hasEmptyBody(fn: SyntaxNode, language: CodeLanguage): boolean {
  const body =
    fn.childForFieldName('body') ?? named(fn).find((c) => c.type === 'function_body') ?? null;
  if (body === null) {
    // A Ruby method without a body is `def f; end`; elsewhere no body is a declaration.
    return language === 'ruby' && !named(fn).some((c) => COMMENT_TYPES.includes(c.type));
  }
  if (language === 'kotlin' && !body.text.startsWith('{')) return false;
  const BLOCKS = ['statement_block', 'block', 'compound_statement', 'function_body'];
  if (!BLOCKS.includes(body.type)) return false; // expression bodies: `=> x`, `= 1`
  return named(body).every((s) => s.type === 'pass_statement');
}

const emptyFunction: Rule = {
  id: 'empty-function',
  category: 'hygiene',
  severity: 'info',
  languages: Object.keys(NODE_KINDS) as CodeLanguage[],
  description:
    'A named function or method whose body is empty (Python: only `pass`) with no comment saying why. Not reported: constructors and destructors, lambdas, interface and trait defaults, abstract or overload stubs, Go methods (interface markers), names containing "noop".',
  check(context) {
    const functions = [...NODE_KINDS[context.language].functions];
    return context.root
      .descendantsOfType(functions)
      .filter((n): n is SyntaxNode => n !== null && n.isNamed)
      .filter((fn) => !exempt(fn, context.language) && hasEmptyBody(fn, context.language))
      .map((fn) => at(fn, `${nameOf(fn)} has an empty body; remove it or say why in a comment`));
  },
};

/** Class-like containers whose functions count as their methods. */
const CLASS_TYPES: Partial<Record<CodeLanguage, ReadonlySet<string>>> = {
  typescript: new Set(['class_declaration', 'class', 'abstract_class_declaration']),
  tsx: new Set(['class_declaration', 'class', 'abstract_class_declaration']),
  javascript: new Set(['class_declaration', 'class']),
  python: new Set(['class_definition']),
  rust: new Set(['impl_item', 'trait_item']),
  java: new Set([
    'class_declaration',
    'enum_declaration',
    'record_declaration',
    'interface_declaration',
  ]),
  cpp: new Set(['class_specifier', 'struct_specifier']),
  csharp: new Set([
    'class_declaration',
    'struct_declaration',
    'record_declaration',
    'interface_declaration',
  ]),
  ruby: new Set(['class', 'module']),
  php: new Set(['class_declaration', 'trait_declaration', 'interface_declaration']),
  kotlin: new Set(['class_declaration', 'object_declaration']),
};

/** C++ methods declared in the class body (`void m();`) count as much as defined ones. */
function isCppDeclaration(node: SyntaxNode): boolean {
  return (
    node.type === 'field_declaration' && named(node).some((c) => c.type === 'function_declarator')
  );
}

/** Methods per class: each function counts for the nearest class around it, unless nested. */
function methodCounts(context: RuleContext): Map<SyntaxNode, number> {
  const classes = CLASS_TYPES[context.language] ?? new Set<string>();
  const functions = NODE_KINDS[context.language].functions;
  const types = [...functions, ...(context.language === 'cpp' ? ['field_declaration'] : [])];
  const counts = new Map<number, { node: SyntaxNode; count: number }>();
  for (const fn of context.root.descendantsOfType(types)) {
    if (fn === null || (fn.type === 'field_declaration' && !isCppDeclaration(fn))) continue;
    for (let p = fn.parent; p !== null; p = p.parent) {
      if (functions.has(p.type)) break; // a local function is not a method
      if (!classes.has(p.type)) continue;
      const entry = counts.get(p.id) ?? { node: p, count: 0 };
      entry.count += 1;
      counts.set(p.id, entry);
      break;
    }
  }
  return new Map([...counts.values()].map((e) => [e.node, e.count]));
}

/** Go methods per receiver type (`func (s *S) m()` counts for S), at the first one. */
function goMethodCounts(context: RuleContext): Map<SyntaxNode, number> {
  const byType = new Map<string, { node: SyntaxNode; count: number }>();
  for (const m of context.root.descendantsOfType('method_declaration')) {
    if (m === null) continue;
    const receiver = m.childForFieldName('receiver')?.descendantsOfType('type_identifier')[0];
    const type = receiver?.text ?? '';
    const entry = byType.get(type) ?? { node: m, count: 0 };
    entry.count += 1;
    byType.set(type, entry);
  }
  return new Map([...byType.values()].map((e) => [e.node, e.count]));
}

const tooManyMethods: Rule = {
  id: 'too-many-methods',
  category: 'size',
  severity: 'warning',
  languages: ['go', ...(Object.keys(CLASS_TYPES) as CodeLanguage[])],
  description:
    'A class (struct, interface, trait, impl block, Ruby class or module; Go: a receiver type within the file) with more methods than the threshold.',
  threshold: 'methods',
  defaultThreshold: DEFAULT_THRESHOLDS.methods,
  check(context) {
    const max = context.thresholds.methods;
    const counts = context.language === 'go' ? goMethodCounts(context) : methodCounts(context);
    return [...counts]
      .filter(([, count]) => count > max)
      .map(([node, count]) => {
        const owner =
          context.language === 'go'
            ? (node.childForFieldName('receiver')?.descendantsOfType('type_identifier')[0]?.text ??
              '?')
            : nameOf(node);
        return at(node, `${owner} has ${count} methods (over ${max})`);
      });
  },
};

/** The structure rules, in listing order. */
export const STRUCTURE_RULES: readonly Rule[] = [emptyFunction, tooManyMethods];
