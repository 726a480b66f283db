// Reads module specifiers out of import-like syntax nodes (one extractor per node type and
// language). Text work is bounded by the node, which is one statement, never the whole file.
import type { SyntaxNode } from '../parser.js';
import { childOfType, fieldText } from './names.js';

/** Returns the specifiers one import node names. */
export type ImportRule = (node: SyntaxNode) => string[];

/** Strips quotes, angle brackets and surrounding space from a literal. */
export function unquote(text: string): string {
  return text.trim().replace(/^[<"'`]+|[>"'`]+$/g, '');
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** A node's text with a leading keyword pattern and trailing `;` removed. */
function stripped(node: SyntaxNode, head: RegExp): string[] {
  const text = oneLine(node.text).replace(head, '').replace(/;$/, '').trim();
  return text === '' ? [] : [text];
}

const sourceField: ImportRule = (node) => {
  const source = fieldText(node, 'source');
  return source === null ? [] : [unquote(source)];
};

const pythonImport: ImportRule = (node) =>
  node
    .childrenForFieldName('name')
    .map((n) => (n === null ? '' : (fieldText(n, 'name') ?? n.text)))
    .filter((s) => s !== '');

const pythonFrom: ImportRule = (node) => {
  const module = fieldText(node, 'module_name');
  if (module === null) return [];
  if (!/^\.+$/.test(module)) return [module];
  return pythonImport(node).map((name) => `${module}${name}`);
};

const pathField: ImportRule = (node) => {
  const path = fieldText(node, 'path');
  return path === null ? [] : [unquote(path)];
};

const kotlinImport: ImportRule = (node) => {
  const id = childOfType(node, ['identifier'])?.text;
  if (id === undefined) return [];
  return [childOfType(node, ['wildcard_import']) === null ? id : `${id}.*`];
};

const phpUse: ImportRule = (node) => {
  const group = childOfType(node, ['namespace_use_group']);
  if (group === null) {
    return node.namedChildren
      .filter((c) => c?.type === 'namespace_use_clause')
      .map((c) => oneLine(c?.namedChild(0)?.text ?? ''))
      .filter((s) => s !== '');
  }
  const prefix = childOfType(node, ['namespace_name'])?.text ?? '';
  return group.namedChildren.map((c) => `${prefix}\\${oneLine(c?.namedChild(0)?.text ?? '')}`);
};

const phpInclude: ImportRule = (node) => {
  const literal = childOfType(node, ['string', 'encapsed_string']);
  return literal === null ? [] : [unquote(literal.text)];
};

const cInclude: ImportRule = pathField;

/** Import node types per language family (calls such as `require` are handled by the walker). */
export const IMPORT_RULES = {
  js: { import_statement: sourceField, export_statement: sourceField },
  python: { import_statement: pythonImport, import_from_statement: pythonFrom },
  go: { import_spec: pathField },
  rust: {
    use_declaration: (n: SyntaxNode) => stripped(n, /^(pub(\([^)]*\))?\s+)?use\s+/),
    extern_crate_declaration: (n: SyntaxNode) => stripped(n, /^extern\s+crate\s+/),
  },
  java: { import_declaration: (n: SyntaxNode) => stripped(n, /^import\s+(static\s+)?/) },
  kotlin: { import_header: kotlinImport },
  c: { preproc_include: cInclude },
  csharp: {
    using_directive: (n: SyntaxNode) =>
      stripped(n, /^(global\s+)?using\s+(static\s+)?([\w.]+\s*=\s*)?/),
  },
  php: {
    namespace_use_declaration: phpUse,
    require_expression: phpInclude,
    require_once_expression: phpInclude,
    include_expression: phpInclude,
    include_once_expression: phpInclude,
  },
  none: {},
} satisfies Record<string, Record<string, ImportRule>>;

/** Call names whose first string argument is a module specifier. */
export const IMPORT_CALLS = {
  js: ['require', 'import'],
  ruby: ['require', 'require_relative', 'load', 'autoload'],
} as const;

/** The first string literal argument of a call node (`require('x')`, `require 'x'`), or null. */
export function firstStringArgument(call: SyntaxNode): string | null {
  const args = call.childForFieldName('arguments');
  const first = args?.namedChild(0) ?? null;
  if (first === null || !/string/.test(first.type)) return null;
  return unquote(first.text);
}
