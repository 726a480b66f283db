// Small helpers that read names, bodies and callees out of syntax nodes, shared by the
// per-language table. Read-only over the tree: no allocation beyond the strings returned.
import type { SyntaxNode } from '../parser.js';

/** The text of a field, or null. */
export function fieldText(node: SyntaxNode, field: string): string | null {
  return node.childForFieldName(field)?.text ?? null;
}

/** The `name` field's text: the default way to name a declaration. */
export function nameField(node: SyntaxNode): string | null {
  return fieldText(node, 'name');
}

/** The first direct named child of one of `types`, or null. */
export function childOfType(node: SyntaxNode, types: readonly string[]): SyntaxNode | null {
  for (let i = 0; i < node.namedChildCount; i++) {
    const child = node.namedChild(i);
    if (child !== null && types.includes(child.type)) return child;
  }
  return null;
}

/** Whether `node` has a direct (anonymous or named) child of this type, e.g. a keyword. */
export function hasChildType(node: SyntaxNode, type: string): boolean {
  for (let i = 0; i < node.childCount; i++) if (node.child(i)?.type === type) return true;
  return false;
}

/** A type name without generics, pointers or references: `*List[T]` → `List`. */
export function bareTypeName(text: string): string | null {
  const match = /[A-Za-z_$][\w$]*(?:(?:::|\.)[A-Za-z_$][\w$]*)*/.exec(text.replace(/^[*&\s]+/, ''));
  return match === null ? null : match[0].replace(/::/g, '.');
}

/**
 * The name of a C/C++ function definition: follows the `declarator` chain (pointer, reference,
 * function declarators) to the identifier; `geo::Shape::print` becomes `geo.Shape.print`.
 */
export function cDeclaratorName(node: SyntaxNode): string | null {
  let current: SyntaxNode | null = node.childForFieldName('declarator');
  for (let i = 0; i < 8 && current !== null; i++) {
    const next = current.childForFieldName('declarator');
    if (next === null) return current.text.replace(/::/g, '.').replace(/\s+/g, '');
    current = next;
  }
  return null;
}

/** Kotlin has no `name` field: the first identifier child names the declaration. */
export function kotlinName(node: SyntaxNode): string | null {
  return childOfType(node, ['type_identifier', 'simple_identifier'])?.text ?? null;
}

/** Go methods are named `Receiver.method` so the receiver type becomes the parent. */
export function goMethodName(node: SyntaxNode): string | null {
  const name = nameField(node);
  const receiver = node.childForFieldName('receiver');
  const param = receiver === null ? null : childOfType(receiver, ['parameter_declaration']);
  const type = param?.childForFieldName('type')?.text ?? null;
  const owner = type === null ? null : bareTypeName(type);
  return name === null ? null : owner === null ? name : `${owner}.${name}`;
}

const CALLEE_FIELDS = ['name', 'property', 'field', 'attribute', 'method', 'function', 'macro'];

/**
 * The simple name a callee expression ends in: `a.b.c` → `c`, `Foo::new` → `new`,
 * `obj->m` → `m`. Descends a bounded number of steps; null when nothing name-like is found.
 */
export function simpleName(node: SyntaxNode | null, idents: ReadonlySet<string>): string | null {
  let current = node;
  for (let i = 0; i < 6 && current !== null; i++) {
    if (idents.has(current.type) && current.namedChildCount === 0) return current.text;
    let next: SyntaxNode | null = current.type.includes('generic') ? current.namedChild(0) : null;
    for (const field of CALLEE_FIELDS) {
      if (next !== null) break;
      next = current.childForFieldName(field);
    }
    current = next ?? current.lastNamedChild;
  }
  return null;
}
