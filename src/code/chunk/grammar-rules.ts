// Declaration and wrapper rules shared by the per-language table, and the helpers that need
// more than a field lookup (JS variables holding functions, Kotlin keywords, Go type specs, C
// typedef names). Pure data and node reads: no walking here.
import type { SyntaxNode } from '../parser.js';
import { cDeclaratorName, childOfType, fieldText, hasChildType } from './names.js';
import type { ChunkKind } from './types.js';

/** How one declaration node type becomes a chunk. */
export interface DeclRule {
  /** The kind, or a function deciding it (null: this node is not a declaration after all). */
  kind: ChunkKind | ((node: SyntaxNode) => ChunkKind | null);
  /** Default: the `name` field. May return a dotted name (`Point.Move`). */
  name?: (node: SyntaxNode) => string | null;
  /** Default: the `body` field. */
  body?: (node: SyntaxNode) => SyntaxNode | null;
  /** Skip the node when it has no body (prototypes, abstract and interface members). */
  needsBody?: boolean;
  /** The signature is the first line only (Ruby: a comment may sit between head and body). */
  oneLineSignature?: boolean;
}

/** A node that wraps a declaration (export, decorators, template) and extends its range. */
export interface WrapperRule {
  /** `last`: when the declaration is its last named child; `only`: its only one; `any`. */
  when: 'last' | 'only' | 'any';
  /** Whether the signature starts at the wrapper (`export function f`) or the declaration. */
  signature: boolean;
}

/** Leading-context lines in C-like languages: comments, doc comments, decorators/annotations. */
export const SLASH = /^\s*(\/\/|\/\*|\*|@(?!interface\b)[A-Za-z])/;
/** Leading-context lines in Python and Ruby: `#` comments and decorators. */
export const HASH = /^\s*(#|@[A-Za-z])/;
const fnValue = ['arrow_function', 'function_expression', 'function', 'generator_function'];

/** `const f = () => …` and class fields holding functions are functions; other variables are not. */
const jsVariable = (node: SyntaxNode): ChunkKind | null => {
  const value = node.childForFieldName('value');
  return value !== null && fnValue.includes(value.type) ? 'function' : null;
};
const jsValueBody = (n: SyntaxNode): SyntaxNode | null =>
  n.childForFieldName('value')?.childForFieldName('body') ?? null;
const jsField: DeclRule = {
  body: jsValueBody,
  kind: jsVariable,
  name: (n) => fieldText(n, 'property') ?? fieldText(n, 'name'),
};

/** JavaScript declarations (TypeScript adds its type-level ones). */
export const JS_DECLS: Record<string, DeclRule> = {
  function_declaration: { kind: 'function' },
  generator_function_declaration: { kind: 'function' },
  class_declaration: { kind: 'class' },
  class: { kind: 'class' },
  method_definition: { kind: 'method' },
  variable_declarator: { kind: jsVariable, body: jsValueBody },
  field_definition: jsField,
};
/** TypeScript and TSX declarations. */
export const TS_DECLS: Record<string, DeclRule> = {
  ...JS_DECLS,
  abstract_class_declaration: { kind: 'class' },
  interface_declaration: { kind: 'interface' },
  enum_declaration: { kind: 'enum' },
  type_alias_declaration: { kind: 'type', body: (n) => n.childForFieldName('value') },
  internal_module: { kind: 'module' },
  module: { kind: 'module', needsBody: true },
  public_field_definition: jsField,
};
/** `export`, and `const`/`let`/`var` holding a single function. */
export const JS_WRAPPERS = {
  export_statement: { when: 'last', signature: true },
  lexical_declaration: { when: 'only', signature: true },
  variable_declaration: { when: 'only', signature: true },
} as const;
/** JS/TS identifier node types counted as references. */
export const JS_IDENTS = ['identifier', 'type_identifier', 'property_identifier'];
/** JS/TS call nodes and their callee field (`new X()` calls X). */
export const JS_CALLS = { call_expression: 'function', new_expression: 'constructor' };

/** Kotlin has no `body` field: the class, enum or function body child. */
export const kotlinBody = (n: SyntaxNode): SyntaxNode | null =>
  childOfType(n, ['class_body', 'enum_class_body', 'function_body']);
/** Kotlin `interface` and `enum class` are class_declarations told apart by a keyword. */
export const kotlinClass = (n: SyntaxNode): ChunkKind =>
  hasChildType(n, 'interface') ? 'interface' : hasChildType(n, 'enum') ? 'enum' : 'class';

/** A Go `type` spec is a struct, an interface or another type. */
export const goTypeSpec = (n: SyntaxNode): ChunkKind => {
  const type = n.childForFieldName('type')?.type;
  return type === 'struct_type' ? 'struct' : type === 'interface_type' ? 'interface' : 'type';
};
/** A Go struct's field list (interfaces list their methods directly, without one). */
export const goTypeBody = (n: SyntaxNode): SyntaxNode | null => {
  const type = n.childForFieldName('type');
  return type === null ? null : childOfType(type, ['field_declaration_list']);
};

/** A C/C++ struct's tag, or the typedef name of an anonymous one. */
export const cStructName = (n: SyntaxNode): string | null =>
  fieldText(n, 'name') ??
  (n.parent?.type === 'type_definition' ? fieldText(n.parent, 'declarator') : null);
/** C declarations (C++ adds classes and namespaces). */
export const C_DECLS: Record<string, DeclRule> = {
  function_definition: { kind: 'function', name: cDeclaratorName },
  struct_specifier: { kind: 'struct', name: cStructName, needsBody: true },
  union_specifier: { kind: 'struct', name: cStructName, needsBody: true },
  enum_specifier: { kind: 'enum', name: cStructName, needsBody: true },
};
/** `typedef struct { … } name;` wraps the struct. */
export const C_WRAPPERS = { type_definition: { when: 'any', signature: true } } as const;
