// The error-handling rules: empty catch blocks, errors bound and then ignored, and handlers
// that catch everything (interrupts, fatal errors) without rethrowing. Read from the one shared
// tree through catch-kinds.ts; never reparse and never look outside the file.
import type { CodeLanguage } from '../languages.js';
import type { SyntaxNode } from '../parser.js';
import {
  CATCH_KINDS,
  type CatchKinds,
  handlerStatements,
  IDENTIFIER_TYPES,
  rethrows,
} from './catch-kinds.js';
import { COMMENT_TYPES } from './syntax-kinds.js';
import type { RawFinding, Rule, RuleContext } from './types.js';

const CATCH_LANGUAGES = Object.keys(CATCH_KINDS) as CodeLanguage[];

function at(node: SyntaxNode, message: string): RawFinding {
  return { line: node.startPosition.row + 1, column: node.startPosition.column + 1, message };
}

/** Every handler of the file with its language's anatomy. */
function handlers(context: RuleContext): { node: SyntaxNode; kinds: CatchKinds }[] {
  const kinds = CATCH_KINDS[context.language];
  if (kinds === undefined) return [];
  return context.root
    .descendantsOfType([...kinds.catches])
    .filter((n): n is SyntaxNode => n !== null && n.isNamed) // Ruby's `rescue` keyword is a node too
    .map((node) => ({ node, kinds }));
}

const isPass = (s: SyntaxNode): boolean => s.type === 'pass_statement';

const emptyCatch: Rule = {
  id: 'empty-catch',
  category: 'error handling',
  severity: 'warning',
  languages: CATCH_LANGUAGES,
  description:
    'A catch/except/rescue block with no statements (Python: only `pass`) and no comment saying why the error is ignored.',
  check(context) {
    return handlers(context).flatMap(({ node }) =>
      handlerStatements(node).every(isPass)
        ? [at(node, 'empty catch block swallows the error')]
        : [],
    );
  },
};

/** True when `statements` mention `name` anywhere. */
function mentions(statements: readonly SyntaxNode[], name: string): boolean {
  return statements.some(
    (s) =>
      (IDENTIFIER_TYPES.includes(s.type) && s.text === name) ||
      s.descendantsOfType([...IDENTIFIER_TYPES]).some((id) => id?.text === name),
  );
}

const swallowedError: Rule = {
  id: 'swallowed-error',
  category: 'error handling',
  severity: 'warning',
  languages: CATCH_LANGUAGES,
  description:
    'A catch/except/rescue that binds the error, does something, yet neither uses the error nor throws: the failure disappears.',
  check(context) {
    return handlers(context).flatMap(({ node, kinds }) => {
      const name = kinds.binding(node);
      if (name === null) return [];
      const statements = handlerStatements(node).filter((s) => !COMMENT_TYPES.includes(s.type));
      if (statements.every(isPass)) return []; // empty-catch's case
      if (rethrows(statements, context.language) || mentions(statements, name)) return [];
      return [at(node, `caught error '${name}' is neither used nor rethrown`)];
    });
  },
};

/**
 * Per language, the caught types that take in more than program errors: interrupts and exits
 * (Python `BaseException`, Ruby `Exception`) or fatal VM errors (Java/Kotlin/PHP `Throwable`).
 */
const CATCH_ALL: Partial<Record<CodeLanguage, ReadonlySet<string>>> = {
  python: new Set(['*', 'BaseException']),
  java: new Set(['Throwable', 'Error']),
  kotlin: new Set(['Throwable']),
  ruby: new Set(['Exception']),
  php: new Set(['Throwable']),
};

const catchAll: Rule = {
  id: 'catch-all',
  category: 'error handling',
  severity: 'warning',
  languages: Object.keys(CATCH_ALL) as CodeLanguage[],
  description:
    'A handler that catches everything — bare `except:` or `BaseException` (Python), `rescue Exception` (Ruby), `Throwable`/`Error` (Java, Kotlin, PHP) — and does not rethrow: interrupts, exits and fatal errors are swallowed with the rest.',
  check(context) {
    const all = CATCH_ALL[context.language];
    if (all === undefined) return [];
    return handlers(context).flatMap(({ node, kinds }) => {
      const caught = kinds.types(node).find((t) => all.has(t));
      if (caught === undefined || rethrows(handlerStatements(node), context.language)) return [];
      const what = caught === '*' ? 'a bare except' : `catching ${caught}`;
      return [
        at(
          node,
          `${what} also swallows interrupts and fatal errors; catch a narrower type or rethrow`,
        ),
      ];
    });
  },
};

/** The error-handling rules, in listing order. */
export const CATCH_RULES: readonly Rule[] = [emptyCatch, swallowedError, catchAll];
