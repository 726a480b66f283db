// Per-language table: which syntax node types are declarations (and of what kind), how they are
// named, where their body is, which nodes wrap them, which are calls, identifiers and imports.
// Node type names were checked against the tree-sitter-wasms 0.1.13 grammars by printing trees.
import type { CodeLanguage } from '../languages.js';
import {
  C_DECLS,
  C_WRAPPERS,
  cStructName,
  type DeclRule,
  goTypeBody,
  goTypeSpec,
  HASH,
  JS_CALLS,
  JS_DECLS,
  JS_IDENTS,
  JS_WRAPPERS,
  kotlinBody,
  kotlinClass,
  SLASH,
  TS_DECLS,
  type WrapperRule,
} from './grammar-rules.js';
import { IMPORT_CALLS, IMPORT_RULES, type ImportRule } from './imports.js';
import { bareTypeName, fieldText, goMethodName, kotlinName } from './names.js';

export type { DeclRule, WrapperRule } from './grammar-rules.js';

/** Everything the walker needs to know about one grammar. */
export interface GrammarSpec {
  decls: ReadonlyMap<string, DeclRule>;
  wrappers: ReadonlyMap<string, WrapperRule>;
  /** Call node type → the field holding the callee (null: the first named child). */
  calls: ReadonlyMap<string, string | null>;
  idents: ReadonlySet<string>;
  imports: ReadonlyMap<string, ImportRule>;
  importCalls: ReadonlySet<string>;
  /** A line of leading context: doc comment, decorator, attribute. */
  leading: RegExp;
  /** Every node type above, for one descendantsOfType call. */
  interesting: string[];
}

interface RawSpec {
  decls: Record<string, DeclRule>;
  wrappers?: Record<string, WrapperRule>;
  calls: Record<string, string | null>;
  idents: string[];
  imports: Record<string, ImportRule>;
  importCalls?: readonly string[];
  leading: RegExp;
}

function jsSpec(decls: Record<string, DeclRule>): RawSpec {
  return {
    decls,
    wrappers: JS_WRAPPERS,
    calls: JS_CALLS,
    idents: JS_IDENTS,
    imports: IMPORT_RULES.js,
    importCalls: IMPORT_CALLS.js,
    leading: SLASH,
  };
}

const RAW: Record<CodeLanguage, RawSpec> = {
  typescript: jsSpec(TS_DECLS),
  tsx: jsSpec(TS_DECLS),
  javascript: jsSpec(JS_DECLS),
  python: {
    decls: { function_definition: { kind: 'function' }, class_definition: { kind: 'class' } },
    wrappers: { decorated_definition: { when: 'last', signature: false } },
    calls: { call: 'function' },
    idents: ['identifier'],
    imports: IMPORT_RULES.python,
    leading: HASH,
  },
  go: {
    decls: {
      function_declaration: { kind: 'function' },
      method_declaration: { kind: 'method', name: goMethodName },
      type_spec: { kind: goTypeSpec, body: goTypeBody },
    },
    wrappers: { type_declaration: { when: 'only', signature: true } },
    calls: { call_expression: 'function' },
    idents: ['identifier', 'type_identifier', 'field_identifier', 'package_identifier'],
    imports: IMPORT_RULES.go,
    leading: SLASH,
  },
  rust: {
    decls: {
      function_item: { kind: 'function' },
      struct_item: { kind: 'struct' },
      union_item: { kind: 'struct' },
      enum_item: { kind: 'enum' },
      trait_item: { kind: 'trait' },
      impl_item: { kind: 'impl', name: (n) => bareTypeName(fieldText(n, 'type') ?? '') },
      mod_item: { kind: 'module', needsBody: true },
      macro_definition: { kind: 'function' },
    },
    calls: { call_expression: 'function', macro_invocation: 'macro' },
    idents: ['identifier', 'type_identifier', 'field_identifier'],
    imports: IMPORT_RULES.rust,
    leading: /^\s*(\/\/|\/\*|\*|#!?\[)/,
  },
  java: {
    decls: {
      class_declaration: { kind: 'class' },
      record_declaration: { kind: 'class' },
      interface_declaration: { kind: 'interface' },
      annotation_type_declaration: { kind: 'interface' },
      enum_declaration: { kind: 'enum' },
      method_declaration: { kind: 'method', needsBody: true },
      constructor_declaration: { kind: 'method' },
    },
    calls: { method_invocation: 'name', object_creation_expression: 'type' },
    idents: ['identifier', 'type_identifier'],
    imports: IMPORT_RULES.java,
    leading: SLASH,
  },
  c: {
    decls: C_DECLS,
    wrappers: C_WRAPPERS,
    calls: { call_expression: 'function' },
    idents: ['identifier', 'type_identifier', 'field_identifier'],
    imports: IMPORT_RULES.c,
    leading: /^\s*(\/\/|\/\*|\*)/,
  },
  cpp: {
    decls: {
      ...C_DECLS,
      class_specifier: { kind: 'class', name: cStructName, needsBody: true },
      namespace_definition: { kind: 'module', needsBody: true },
    },
    wrappers: { ...C_WRAPPERS, template_declaration: { when: 'last', signature: true } },
    calls: { call_expression: 'function', new_expression: 'type' },
    idents: ['identifier', 'type_identifier', 'field_identifier', 'namespace_identifier'],
    imports: IMPORT_RULES.c,
    leading: /^\s*(\/\/|\/\*|\*|\[\[)/,
  },
  csharp: {
    decls: {
      namespace_declaration: { kind: 'module' },
      class_declaration: { kind: 'class' },
      record_declaration: { kind: 'class' },
      interface_declaration: { kind: 'interface' },
      struct_declaration: { kind: 'struct' },
      enum_declaration: { kind: 'enum' },
      method_declaration: { kind: 'method', needsBody: true },
      constructor_declaration: { kind: 'method' },
    },
    calls: { invocation_expression: 'function', object_creation_expression: 'type' },
    idents: ['identifier'],
    imports: IMPORT_RULES.csharp,
    leading: /^\s*(\/\/|\/\*|\*|\[)/,
  },
  ruby: {
    decls: {
      module: { kind: 'module', oneLineSignature: true },
      class: { kind: 'class', oneLineSignature: true },
      singleton_class: { kind: 'class', name: () => 'self', oneLineSignature: true },
      method: { kind: 'function', oneLineSignature: true },
      singleton_method: { kind: 'method', oneLineSignature: true },
    },
    calls: { call: 'method' },
    idents: ['identifier', 'constant'],
    imports: {},
    importCalls: IMPORT_CALLS.ruby,
    leading: HASH,
  },
  php: {
    decls: {
      namespace_definition: { kind: 'module', needsBody: true },
      class_declaration: { kind: 'class' },
      interface_declaration: { kind: 'interface' },
      trait_declaration: { kind: 'trait' },
      enum_declaration: { kind: 'enum' },
      function_definition: { kind: 'function' },
      method_declaration: { kind: 'method', needsBody: true },
    },
    calls: {
      function_call_expression: 'function',
      member_call_expression: 'name',
      scoped_call_expression: 'name',
      nullsafe_member_call_expression: 'name',
      object_creation_expression: null,
    },
    idents: ['name'],
    imports: IMPORT_RULES.php,
    leading: /^\s*(\/\/|\/\*|\*|#)/,
  },
  kotlin: {
    decls: {
      class_declaration: { kind: kotlinClass, name: kotlinName, body: kotlinBody },
      object_declaration: { kind: 'class', name: kotlinName, body: kotlinBody },
      companion_object: {
        kind: 'class',
        name: (n) => kotlinName(n) ?? 'Companion',
        body: kotlinBody,
      },
      function_declaration: {
        kind: 'function',
        name: kotlinName,
        body: kotlinBody,
        needsBody: true,
      },
    },
    calls: { call_expression: null },
    idents: ['simple_identifier', 'type_identifier'],
    imports: IMPORT_RULES.kotlin,
    leading: SLASH,
  },
};

const specs = new Map<CodeLanguage, GrammarSpec>();

/** The compiled table for a language (Maps, so node types never collide with Object keys). */
export function grammarSpec(language: CodeLanguage): GrammarSpec {
  let spec = specs.get(language);
  if (spec === undefined) {
    const raw = RAW[language];
    const interesting = new Set([
      ...raw.idents,
      ...Object.keys(raw.calls),
      ...Object.keys(raw.decls),
      ...Object.keys(raw.imports),
    ]);
    spec = {
      interesting: [...interesting],
      decls: new Map(Object.entries(raw.decls)),
      wrappers: new Map(Object.entries(raw.wrappers ?? {})),
      calls: new Map(Object.entries(raw.calls)),
      idents: new Set(raw.idents),
      imports: new Map(Object.entries(raw.imports)),
      importCalls: new Set(raw.importCalls ?? []),
      leading: raw.leading,
    };
    specs.set(language, spec);
  }
  return spec;
}
