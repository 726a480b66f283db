// Per-language node types the syntax rules look for (calls, jumps, blocks) and the callees
// that count as debug prints (catch handlers are in catch-kinds.ts). Pure data, checked against the real grammars by the
// rules' tests; a language missing here simply has no such rule.
import type { CodeLanguage } from '../languages.js';

/** What the syntax rules need to know about one grammar. */
export interface SyntaxKinds {
  /** Call nodes, and the callee texts (whitespace removed) that are debug output. */
  readonly calls?: readonly string[];
  readonly debugCallees?: ReadonlySet<string>;
  /** Whole statements that are debug leftovers (`debugger`). */
  readonly debugStatements?: readonly string[];
  /** Bare words that are debugger calls when they stand as a statement (Ruby `byebug`). */
  readonly debugWords?: ReadonlySet<string>;
  /** Parents whose identifier children are statements (for `debugWords`). */
  readonly statementParents?: ReadonlySet<string>;
  /** Statements after which nothing in the same block runs. */
  readonly jumps?: readonly string[];
  /** Parents whose children are a statement sequence (blocks, switch cases). */
  readonly blocks?: ReadonlySet<string>;
  /** Siblings that may follow a jump without being dead code (comments, hoisted functions). */
  readonly afterJumpOk?: ReadonlySet<string>;
}

/** Comment node types across the grammars. */
export const COMMENT_TYPES: readonly string[] = [
  'comment',
  'line_comment',
  'block_comment',
  'multiline_comment',
];

const JS_LIKE: SyntaxKinds = {
  calls: ['call_expression'],
  debugCallees: new Set(['console.log', 'console.debug', 'console.trace', 'console.dir']),
  debugStatements: ['debugger_statement'],
  jumps: ['return_statement', 'throw_statement', 'break_statement', 'continue_statement'],
  blocks: new Set(['statement_block', 'switch_case', 'switch_default', 'program']),
  afterJumpOk: new Set(['comment', 'empty_statement', 'function_declaration']),
};

export const SYNTAX_KINDS: Partial<Record<CodeLanguage, SyntaxKinds>> = {
  typescript: JS_LIKE,
  tsx: JS_LIKE,
  javascript: JS_LIKE,
  python: {
    calls: ['call'],
    debugCallees: new Set(['print', 'breakpoint', 'pdb.set_trace']),
    jumps: ['return_statement', 'raise_statement', 'break_statement', 'continue_statement'],
    blocks: new Set(['block', 'module']),
    afterJumpOk: new Set(['comment']),
  },
  go: {
    calls: ['call_expression'],
    debugCallees: new Set(['fmt.Println', 'fmt.Print', 'println', 'print']),
    jumps: ['return_statement', 'break_statement', 'continue_statement'],
    blocks: new Set(['block', 'expression_case', 'default_case', 'type_case']),
    afterJumpOk: new Set(['comment', 'labeled_statement']),
  },
  java: {
    calls: ['method_invocation'],
    debugCallees: new Set([
      'System.out.println',
      'System.out.print',
      'System.out.printf',
      'System.err.println',
      'System.err.print',
    ]),
    jumps: ['return_statement', 'throw_statement', 'break_statement', 'continue_statement'],
    blocks: new Set(['block', 'switch_block_statement_group']),
    afterJumpOk: new Set(['line_comment', 'block_comment']),
  },
  c: {
    jumps: ['return_statement', 'break_statement', 'continue_statement'],
    blocks: new Set(['compound_statement', 'case_statement']),
    afterJumpOk: new Set(['comment', 'labeled_statement']),
  },
  cpp: {
    jumps: ['return_statement', 'throw_statement', 'break_statement', 'continue_statement'],
    blocks: new Set(['compound_statement', 'case_statement']),
    afterJumpOk: new Set(['comment', 'labeled_statement']),
  },
  csharp: {
    calls: ['invocation_expression'],
    debugCallees: new Set(['Console.WriteLine', 'Console.Write']),
    jumps: ['return_statement', 'throw_statement', 'break_statement', 'continue_statement'],
    blocks: new Set(['block', 'switch_section']),
    afterJumpOk: new Set(['comment', 'labeled_statement', 'local_function_statement']),
  },
  php: {
    calls: ['function_call_expression'],
    debugCallees: new Set(['var_dump', 'print_r', 'dd', 'dump']),
    jumps: ['return_statement', 'break_statement', 'continue_statement'],
    blocks: new Set(['compound_statement', 'case_statement', 'default_statement']),
    afterJumpOk: new Set(['comment', 'function_definition']),
  },
  ruby: {
    calls: ['call'],
    debugCallees: new Set(['puts', 'p', 'pp', 'print', 'binding.pry', 'binding.irb', 'byebug']),
    debugWords: new Set(['byebug', 'debugger']),
    statementParents: new Set(['program', 'body_statement', 'then', 'else', 'block_body', 'begin']),
  },
  kotlin: {
    calls: ['call_expression'],
    debugCallees: new Set(['println', 'print']),
  },
  rust: {
    calls: ['macro_invocation'],
    debugCallees: new Set(['dbg!', 'println!', 'print!', 'eprintln!', 'eprint!']),
  },
};

/** The languages that have `key` in the table, in CodeLanguage order. */
export function languagesWith(key: keyof SyntaxKinds): CodeLanguage[] {
  return (Object.keys(SYNTAX_KINDS) as CodeLanguage[]).filter(
    (l) => SYNTAX_KINDS[l]?.[key] !== undefined,
  );
}

/** Every language in the table (the text-level rules are tested in these). */
export const TABLE_LANGUAGES: readonly CodeLanguage[] = Object.keys(SYNTAX_KINDS) as CodeLanguage[];
