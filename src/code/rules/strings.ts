// String literals across the grammars: whether one is static (no interpolation) and whether an
// expression builds a string at run time (interpolation, concatenation with a non-literal,
// printf-style formatting). The injection rules read this; it never looks beyond one expression.
import type { CodeLanguage } from '../languages.js';
import type { SyntaxNode } from '../parser.js';
import { callAt } from './calls.js';

/** String literal node types across the grammars. */
const STRING_TYPES: ReadonlySet<string> = new Set([
  'string',
  'template_string',
  'string_literal',
  'raw_string_literal',
  'interpreted_string_literal',
  'verbatim_string_literal',
  'interpolated_string_expression',
  'encapsed_string',
  'heredoc',
  'nowdoc',
  'text_block',
  'concatenated_string',
]);

/** Named children of a string literal that are its text, not an interpolated expression. */
const TEXT_PIECES: ReadonlySet<string> = new Set([
  'string_content',
  'string_fragment',
  'multiline_string_fragment',
  'escape_sequence',
  'string_start',
  'string_end',
  'interpolated_string_text',
  'heredoc_start',
  'heredoc_end',
  'heredoc_body',
  'nowdoc_body',
  'nowdoc_string',
]);

/** Concatenation operators: `+` everywhere, `.` in PHP. */
const CONCAT: ReadonlySet<string> = new Set(['+', '.']);

/** printf-style formatters whose first argument is a format string. */
const FORMATTERS: ReadonlySet<string> = new Set([
  'fmt.Sprintf',
  'String.format',
  'string.Format',
  'String.Format',
  'sprintf',
  'vsprintf',
  'format',
]);

const named = (node: SyntaxNode): SyntaxNode[] =>
  node.namedChildren.filter((c): c is SyntaxNode => c !== null && !c.type.includes('comment'));

/** The text of a literal without its prefix and quotes (`f"x"` → `x`). */
function unquote(text: string): string {
  return text.replace(/^[A-Za-z@$]{0,3}["'`]+/, '').replace(/["'`]+$/, '');
}

/** A string literal with no interpolation: its text; null for anything else. */
export function staticText(node: SyntaxNode): string | null {
  if (!STRING_TYPES.has(node.type)) return null;
  for (const part of named(node)) {
    if (STRING_TYPES.has(part.type) ? staticText(part) === null : !TEXT_PIECES.has(part.type)) {
      return null;
    }
  }
  return unquote(node.text);
}

/** Stands for a value spliced into a built string's literal text. */
export const VALUE = '\u0000';

/** printf and str.format placeholders (`%s`, `%-5d`, `{}`, `{name}`) of a format string. */
const FORMAT_SLOT = /%[-#+ 0-9.]*[sdvqifxX]|\{[^{}]*\}/g;

/** A format string's text with each placeholder replaced by VALUE. */
const slots = (text: string | null): string | null => text?.replace(FORMAT_SLOT, VALUE) ?? null;

/** The literal text of an interpolated string, each interpolation replaced by VALUE. */
function templateText(node: SyntaxNode): string {
  let text = '';
  for (const part of named(node)) {
    if (part.type === 'string_start' || part.type === 'string_end') continue;
    if (STRING_TYPES.has(part.type)) text += staticText(part) ?? templateText(part);
    else text += TEXT_PIECES.has(part.type) ? part.text : VALUE;
  }
  return text;
}

/** Number, boolean and null literal node types across the grammars. */
const CONSTANTS: ReadonlySet<string> = new Set([
  'number',
  'integer',
  'float',
  'true',
  'false',
  'null',
  'none',
  'nil',
  'int_literal',
  'float_literal',
  'integer_literal',
  'real_literal',
  'number_literal',
  'boolean',
  'boolean_literal',
  'decimal_integer_literal',
  'decimal_floating_point_literal',
  'hex_integer_literal',
]);

/** A literal: a static string, a number, a boolean or null. */
function isLiteral(node: SyntaxNode): boolean {
  return staticText(node) !== null || CONSTANTS.has(node.type);
}

/** The operator token of a binary node (`operator` field, else its first anonymous child). */
function operatorOf(node: SyntaxNode): string | null {
  const op = node.childForFieldName('operator');
  if (op !== null) return op.text;
  for (const child of node.children) {
    if (child !== null && !child.isNamed) return child.text;
  }
  return null;
}

const BINARY: ReadonlySet<string> = new Set([
  'binary_expression',
  'binary_operator',
  'binary',
  'additive_expression',
]);

/** The operands of a chain of one operator (`a + b + c` → a, b, c). */
function operands(node: SyntaxNode, op: string): SyntaxNode[] {
  if (!BINARY.has(node.type) || operatorOf(node) !== op) return [node];
  return named(node).flatMap((child) => operands(child, op));
}

function concatenation(node: SyntaxNode, language: CodeLanguage): string | null {
  const op = operatorOf(node);
  if (op === null || !CONCAT.has(op) || (op === '.' && language !== 'php')) return null;
  const parts = operands(node, op);
  const strings = parts.filter((p) => STRING_TYPES.has(p.type));
  if (strings.length === 0 || parts.every(isLiteral)) return null;
  const texts = parts.map(
    (p) => staticText(p) ?? (STRING_TYPES.has(p.type) ? templateText(p) : VALUE),
  );
  return texts.join('');
}

function formatting(node: SyntaxNode, language: CodeLanguage): string | null {
  const call = callAt(node, language);
  if (call === null) return null;
  if (call.name === 'format' && call.receiverNode !== null) {
    const text = staticText(call.receiverNode); // "…".format(x): Python, Kotlin
    if (text !== null && call.args.length + call.keywords.size > 0) return slots(text);
  }
  const [format, ...rest] = call.args;
  if (!FORMATTERS.has(call.callee) || format === undefined || rest.length === 0) return null;
  return slots(staticText(format));
}

/**
 * When `node` builds a string at run time — an interpolated literal, a concatenation of a
 * string literal with something that is not a literal, `%`-formatting, `.format`, `sprintf`
 * and kin — its literal text with VALUE where each value goes ('' when unknown); null when it
 * is not a built string.
 */
export function builtString(node: SyntaxNode, language: CodeLanguage): string | null {
  if (STRING_TYPES.has(node.type)) return staticText(node) === null ? templateText(node) : null;
  if (node.type === 'parenthesized_expression') {
    const inner = named(node)[0];
    return inner === undefined ? null : builtString(inner, language);
  }
  if (BINARY.has(node.type)) {
    const left = named(node)[0];
    if (operatorOf(node) === '%' && language === 'python' && left !== undefined) {
      return slots(staticText(left));
    }
    return concatenation(node, language);
  }
  return formatting(node, language);
}

/** The values a built string is made from (interpolated expressions, non-literal operands). */
export function builtValues(node: SyntaxNode, language: CodeLanguage): SyntaxNode[] {
  if (STRING_TYPES.has(node.type)) {
    return named(node).flatMap((part) => {
      if (STRING_TYPES.has(part.type)) return builtValues(part, language);
      if (TEXT_PIECES.has(part.type)) return [];
      return named(part).length > 0 && /interpolat|substitution/.test(part.type)
        ? named(part)
        : [part];
    });
  }
  if (node.type === 'parenthesized_expression') {
    return named(node).flatMap((inner) => builtValues(inner, language));
  }
  const op = BINARY.has(node.type) ? operatorOf(node) : null;
  if (op === '%' && language === 'python') return named(node).slice(1);
  if (op !== null && CONCAT.has(op)) {
    return operands(node, op).flatMap((p) =>
      STRING_TYPES.has(p.type) ? builtValues(p, language) : isLiteral(p) ? [] : [p],
    );
  }
  const call = callAt(node, language);
  if (call === null) return [node];
  return call.name === 'format' && call.receiverNode !== null
    ? [...call.args, ...call.keywords.values()]
    : call.args.slice(1);
}
