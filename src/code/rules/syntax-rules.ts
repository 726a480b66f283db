// The syntax rules: empty catch blocks, TODO/FIXME comments, debug prints and unreachable code,
// each read from the one shared tree. They never reparse and never look outside the file.
import type { SyntaxNode } from '../parser.js';
import { COMMENT_TYPES, languagesWith, SYNTAX_KINDS, TABLE_LANGUAGES } from './syntax-kinds.js';
import type { RawFinding, Rule, RuleContext } from './types.js';

/** Nodes of the given types under the root (tree-sitter's own search; no nulls). */
function nodesOf(context: RuleContext, types: readonly string[] | undefined): SyntaxNode[] {
  if (types === undefined || types.length === 0) return [];
  return context.root.descendantsOfType([...types]).filter((n): n is SyntaxNode => n !== null);
}

function at(node: SyntaxNode, message: string): RawFinding {
  return { line: node.startPosition.row + 1, column: node.startPosition.column + 1, message };
}

/** The statements of a catch body, or null when the catch has no body node. */
function catchStatements(node: SyntaxNode): SyntaxNode[] | null {
  const body =
    node.childForFieldName('body') ?? node.namedChildren.find((c) => c?.type === 'block') ?? null;
  if (body === null) return null;
  return body.namedChildren.filter((c): c is SyntaxNode => c !== null);
}

const emptyCatch: Rule = {
  id: 'empty-catch',
  category: 'error handling',
  severity: 'warning',
  languages: languagesWith('catches'),
  description:
    'A catch/except block with no statements (Python: only `pass`) and no comment saying why the error is ignored.',
  check(context) {
    return nodesOf(context, SYNTAX_KINDS[context.language]?.catches).flatMap((node) => {
      const body = catchStatements(node);
      if (body === null || body.some((s) => s.type !== 'pass_statement')) return [];
      return [at(node, 'empty catch block swallows the error')];
    });
  },
};

/** The name a catch binds the error to (`e` in `catch (e)`, `except E as e`), if any. */
function caughtName(node: SyntaxNode): string | null {
  const js = node.childForFieldName('parameter');
  if (js !== null) return js.type === 'identifier' ? js.text : null;
  for (const child of node.namedChildren) {
    if (child?.type === 'catch_formal_parameter')
      return child.childForFieldName('name')?.text ?? null;
    if (child?.type === 'as_pattern') {
      const target = child.childForFieldName('alias')?.namedChildren[0];
      return target?.type === 'identifier' ? target.text : null;
    }
  }
  return null;
}

const RETHROWS = ['throw_statement', 'raise_statement'];

/** True when `statements` mention `name` or throw/raise anything. */
function handles(statements: readonly SyntaxNode[], name: string): boolean {
  return statements.some(
    (s) =>
      s.descendantsOfType([...RETHROWS]).length > 0 ||
      RETHROWS.includes(s.type) ||
      s.descendantsOfType('identifier').some((id) => id?.text === name),
  );
}

const swallowedError: Rule = {
  id: 'swallowed-error',
  category: 'error handling',
  severity: 'warning',
  languages: ['typescript', 'tsx', 'javascript', 'python', 'java'],
  description:
    'A catch/except that binds the error, does something, yet neither uses the error nor throws: the failure disappears.',
  check(context) {
    return nodesOf(context, SYNTAX_KINDS[context.language]?.catches).flatMap((node) => {
      const name = caughtName(node);
      const body = catchStatements(node);
      if (name === null || body === null) return [];
      const statements = body.filter((s) => !COMMENT_TYPES.includes(s.type));
      if (statements.every((s) => s.type === 'pass_statement')) return []; // empty-catch's case
      if (handles(statements, name)) return [];
      return [at(node, `caught error '${name}' is neither used nor rethrown`)];
    });
  },
};

const MARKER = /\b(TODO|FIXME|XXX|HACK)\b/;

const todoComment: Rule = {
  id: 'todo-comment',
  category: 'hygiene',
  severity: 'info',
  languages: TABLE_LANGUAGES,
  description: 'A TODO, FIXME, XXX or HACK marker in a comment.',
  check(context) {
    return nodesOf(context, COMMENT_TYPES).flatMap((node) => {
      const lines = node.text.split('\n');
      for (let i = 0; i < lines.length; i += 1) {
        const m = MARKER.exec(lines[i] ?? '');
        if (m === null) continue;
        const column = (i === 0 ? node.startPosition.column : 0) + m.index + 1;
        return [{ line: node.startPosition.row + 1 + i, column, message: `${m[1]} comment` }];
      }
      return [];
    });
  },
};

/** The callee of a call as written, whitespace removed (`console.log`, `dbg!`). */
function calleeOf(node: SyntaxNode): string {
  let text: string;
  if (node.type === 'macro_invocation') {
    text = `${node.childForFieldName('macro')?.text ?? ''}!`;
  } else if (node.type === 'method_invocation') {
    const object = node.childForFieldName('object');
    const name = node.childForFieldName('name')?.text ?? '';
    text = object === null ? name : `${object.text}.${name}`;
  } else {
    // Kotlin's call_expression has no field names: the callee is its first child.
    text = (node.childForFieldName('function') ?? node.namedChildren[0])?.text ?? '';
  }
  return text.replace(/\s+/g, '');
}

const debugPrint: Rule = {
  id: 'debug-print',
  category: 'hygiene',
  severity: 'info',
  languages: languagesWith('debugCallees'),
  description:
    'Debug output left in: console.log/debug/trace/dir and debugger (JS/TS), print/breakpoint (Python), fmt.Print(ln)/println (Go), System.out/err.print(ln) (Java), dbg!/println!/eprintln! (Rust).',
  check(context) {
    const kinds = SYNTAX_KINDS[context.language];
    const callees = kinds?.debugCallees ?? new Set<string>();
    const calls = nodesOf(context, kinds?.calls).flatMap((node) => {
      const callee = calleeOf(node);
      return callees.has(callee) ? [at(node, `debug output left in: ${callee}`)] : [];
    });
    const statements = nodesOf(context, kinds?.debugStatements).map((node) =>
      at(node, 'debugger statement left in'),
    );
    return [...calls, ...statements];
  },
};

const unreachable: Rule = {
  id: 'unreachable-code',
  category: 'hygiene',
  severity: 'warning',
  languages: languagesWith('jumps'),
  description:
    'A statement after return, throw/raise, break or continue in the same block (reported once per jump).',
  check(context) {
    const kinds = SYNTAX_KINDS[context.language];
    const blocks = kinds?.blocks ?? new Set<string>();
    const ok = kinds?.afterJumpOk ?? new Set<string>();
    return nodesOf(context, kinds?.jumps).flatMap((jump) => {
      if (jump.parent === null || !blocks.has(jump.parent.type)) return [];
      let next = jump.nextNamedSibling;
      for (let i = 0; next !== null && i < 10_000; i += 1) {
        if (!ok.has(next.type)) {
          const word = jump.type.replace(/_statement$/, '');
          return [at(next, `unreachable code after ${word}`)];
        }
        next = next.nextNamedSibling;
      }
      return [];
    });
  },
};

/** The five syntax rules, in listing order. */
export const SYNTAX_RULES: readonly Rule[] = [
  emptyCatch,
  swallowedError,
  todoComment,
  debugPrint,
  unreachable,
];
