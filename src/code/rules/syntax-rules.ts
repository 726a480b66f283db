// The hygiene syntax rules: TODO/FIXME comments, debug prints and unreachable code, each read
// from the one shared tree. They never reparse and never look outside the file.
import type { SyntaxNode } from '../parser.js';
import { callAt } from './calls.js';
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

const debugPrint: Rule = {
  id: 'debug-print',
  category: 'hygiene',
  severity: 'info',
  languages: languagesWith('debugCallees'),
  description:
    'Debug output left in: console.log/debug/trace/dir and debugger (JS/TS), print/breakpoint (Python), fmt.Print(ln)/println (Go), System.out/err.print(ln) (Java), dbg!/println!/eprintln! (Rust), puts/p/pp/print/binding.pry/byebug (Ruby, receiverless).',
  check(context) {
    const kinds = SYNTAX_KINDS[context.language];
    const callees = kinds?.debugCallees ?? new Set<string>();
    const calls = nodesOf(context, kinds?.calls).flatMap((node) => {
      const callee = callAt(node, context.language)?.callee ?? '';
      return callees.has(callee) ? [at(node, `debug output left in: ${callee}`)] : [];
    });
    const statements = nodesOf(context, kinds?.debugStatements).map((node) =>
      at(node, 'debugger statement left in'),
    );
    const words = kinds?.debugWords ?? new Set<string>();
    const parents = kinds?.statementParents ?? new Set<string>();
    const bare = nodesOf(context, words.size > 0 ? ['identifier'] : [])
      .filter((n) => words.has(n.text) && parents.has(n.parent?.type ?? ''))
      .map((node) => at(node, `debugger call left in: ${node.text}`));
    return [...calls, ...statements, ...bare];
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

/** The hygiene syntax rules, in listing order. */
export const SYNTAX_RULES: readonly Rule[] = [todoComment, debugPrint, unreachable];
