// analyze_code's engine: per-file and per-function metrics (SLOC, cyclomatic, cognitive,
// Halstead, maintainability index, length, parameters, nesting) from one tree-sitter parse.
// Never throws on syntax errors (the tree has ERROR nodes; `hasSyntaxErrors` says so) and does
// bounded work (a node-step budget and a function cap); no file system access here.
import { DomainError, InvalidInputError } from '../../shared/errors.js';
import { CODE_LANGUAGES, type CodeLanguage } from '../languages.js';
import { parseSource, type SyntaxNode } from '../parser.js';
import { type ComplexityMetrics, complexityOf } from './complexity.js';
import { boundName, functionName, implicitName, parameterCount } from './constructs.js';
import { halsteadOf, type HalsteadMetrics, maintainabilityIndex } from './halstead.js';
import { NODE_KINDS, type NodeKinds } from './node-kinds.js';
import { type Budget, rowKinds } from './tree-scan.js';

/** What to analyse: one file's text and its language. */
export interface AnalyzeInput {
  readonly path: string;
  readonly language: CodeLanguage;
  readonly text: string;
}

/** Limits that keep one analysis bounded. */
export interface AnalyzeOptions {
  /** Largest text accepted, in UTF-16 code units (default 2,000,000). */
  readonly maxChars?: number;
  /** Node steps for all scans of the file together (default 5,000,000). */
  readonly maxSteps?: number;
  /** Functions reported at most (default 2,000). */
  readonly maxFunctions?: number;
}

/** Measures shared by a file and a function. */
export interface CodeMetrics extends ComplexityMetrics {
  /** Source lines: rows holding a code token (blank and comment-only rows excluded). */
  readonly sloc: number;
  readonly halstead: HalsteadMetrics;
  /** 0–100, see `maintainabilityIndex`. */
  readonly maintainability: number;
}

/** One function, method, constructor or top-level lambda. */
export interface FunctionMetrics extends CodeMetrics {
  /** Declared or bound name; `<anonymous>` when there is none. */
  readonly name: string;
  /** The tree-sitter node type (`method_definition`, `arrow_function`, …). */
  readonly kind: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  /** endLine − startLine + 1. */
  readonly length: number;
  readonly parameters: number;
}

/** One file's metrics, with its functions in source order. */
export interface FileMetrics extends CodeMetrics {
  readonly path: string;
  readonly language: CodeLanguage;
  /** Physical lines (a final newline does not start another). */
  readonly lines: number;
  readonly blankLines: number;
  readonly commentLines: number;
  readonly functions: readonly FunctionMetrics[];
  /** The parser recovered from syntax errors: metrics describe what it could read. */
  readonly hasSyntaxErrors: boolean;
  /** The step budget or function cap ran out: some measures are partial. */
  readonly truncated: boolean;
}

const DEFAULTS = { maxChars: 2_000_000, maxSteps: 5_000_000, maxFunctions: 2_000 } as const;

/**
 * Parses `input.text` as `input.language` and measures it.
 * @throws InvalidInputError (field `language` or `text`) for an unknown language or a text over
 *   `maxChars`; DomainError `grammar_unavailable` when the grammar cannot be loaded.
 */
export async function analyzeSource(
  input: AnalyzeInput,
  options: AnalyzeOptions = {},
): Promise<FileMetrics> {
  if (!CODE_LANGUAGES.includes(input.language)) {
    throw new InvalidInputError(`unsupported language '${String(input.language)}'`, 'language');
  }
  const maxChars = options.maxChars ?? DEFAULTS.maxChars;
  if (input.text.length > maxChars) {
    throw new InvalidInputError(
      `${input.path} is ${input.text.length} characters, over the ${maxChars} analysed`,
      'text',
    );
  }
  let tree;
  try {
    tree = await parseSource(input.language, input.text);
  } catch (cause) {
    throw new DomainError(
      'grammar_unavailable',
      `cannot parse ${input.language}: ${String(cause)}`,
      { cause },
    );
  }
  try {
    return analyzeTree(tree.rootNode, input, options);
  } finally {
    tree.delete();
  }
}

/** Measures an already parsed tree (for callers that parse once for several purposes). */
export function analyzeTree(
  root: SyntaxNode,
  input: AnalyzeInput,
  options: AnalyzeOptions = {},
): FileMetrics {
  const kinds = NODE_KINDS[input.language];
  const budget: Budget = { remaining: options.maxSteps ?? DEFAULTS.maxSteps };
  const lines = lineCount(input.text);
  const rows = rowKinds(root, kinds, lines, budget);
  const found = findFunctions(root, kinds, options.maxFunctions ?? DEFAULTS.maxFunctions, budget);
  const functions = found.nodes.map((node) => measureFunction(node, kinds, rows, budget));
  const file = measure(root, kinds, null, slocBetween(rows, 0, lines - 1), budget);
  return {
    path: input.path,
    language: input.language,
    lines,
    blankLines: rows.filter((r) => r === 0).length,
    commentLines: rows.filter((r) => r === 2).length,
    ...file,
    functions,
    hasSyntaxErrors: root.hasError,
    truncated: found.capped || budget.remaining <= 0,
  };
}

function measure(
  node: SyntaxNode,
  kinds: NodeKinds,
  fn: { readonly name: string | null } | null,
  sloc: number,
  budget: Budget,
): CodeMetrics {
  const complexity = complexityOf(node, kinds, fn, budget);
  const halstead = halsteadOf(node, kinds, budget);
  const maintainability = maintainabilityIndex(halstead.volume, complexity.cyclomatic, sloc);
  return { sloc, ...complexity, halstead, maintainability };
}

function measureFunction(
  node: SyntaxNode,
  kinds: NodeKinds,
  rows: Uint8Array,
  budget: Budget,
): FunctionMetrics {
  const declared = kinds.functions.has(node.type) ? functionName(node) : null;
  const name = declared ?? implicitName(node) ?? boundName(node);
  const start = node.startPosition.row;
  const end = node.endPosition.row;
  return {
    name: name ?? '<anonymous>',
    kind: node.type,
    startLine: start + 1,
    endLine: end + 1,
    length: end - start + 1,
    parameters: parameterCount(node, kinds),
    ...measure(node, kinds, { name: declared }, slocBetween(rows, start, end), budget),
  };
}

/** Named functions anywhere, and lambdas that are not inside another function, in source order. */
function findFunctions(
  root: SyntaxNode,
  kinds: NodeKinds,
  cap: number,
  budget: Budget,
): { nodes: SyntaxNode[]; capped: boolean } {
  const nodes: SyntaxNode[] = [];
  const stack: { node: SyntaxNode; inFn: boolean }[] = [{ node: root, inFn: false }];
  while (stack.length > 0 && budget.remaining > 0) {
    const top = stack.pop();
    if (top === undefined) break;
    budget.remaining -= 1;
    const { node } = top;
    const named = kinds.functions.has(node.type);
    const isFn = named || kinds.lambdas.has(node.type);
    if (named || (isFn && !top.inFn)) {
      if (nodes.length >= cap) return { nodes: sortByStart(nodes), capped: true };
      nodes.push(node);
    }
    for (let i = node.namedChildCount - 1; i >= 0; i -= 1) {
      const child = node.namedChild(i);
      if (child !== null) stack.push({ node: child, inFn: top.inFn || isFn });
    }
  }
  return { nodes: sortByStart(nodes), capped: false };
}

function sortByStart(nodes: SyntaxNode[]): SyntaxNode[] {
  return nodes.sort((a, b) => a.startIndex - b.startIndex);
}

function slocBetween(rows: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let r = from; r <= to && r < rows.length; r += 1) if (rows[r] === 1) n += 1;
  return n;
}

/** Physical lines: `a\nb` and `a\nb\n` are both 2; the empty text is 0. */
function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) n += 1;
  return text.endsWith('\n') ? n - 1 : n;
}
