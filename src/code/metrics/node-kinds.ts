// The per-language table of tree-sitter node types the metrics read: functions, lambdas,
// branches, loops, switches, case labels, catches, parameters and calls. Pure data, checked
// against the real grammars by node-kinds.test.ts; the walkers must not hard-code node types.
import type { CodeLanguage } from '../languages.js';

/** The node types of one grammar that the metrics walkers recognise. */
export interface NodeKinds {
  /** Named functions and methods: reported one by one. */
  readonly functions: ReadonlySet<string>;
  /** Anonymous functions: reported only outside any function, else folded into their parent. */
  readonly lambdas: ReadonlySet<string>;
  /** `if` (and `unless`, modifier forms); an `if` in else position is an else-if. */
  readonly ifs: ReadonlySet<string>;
  /** Else-if clauses that are their own node type (`elif`, `elsif`, `elseif`). */
  readonly elseIfs: ReadonlySet<string>;
  /** Else wrappers, when the grammar has one (`else_clause`); otherwise an `else` token. */
  readonly elses: ReadonlySet<string>;
  readonly ternaries: ReadonlySet<string>;
  readonly loops: ReadonlySet<string>;
  /** switch / match / when / case / select: one cognitive increment for the whole structure. */
  readonly switches: ReadonlySet<string>;
  /** One case label or arm each; `isDefault` tells the default ones apart. */
  readonly cases: ReadonlySet<string>;
  readonly catches: ReadonlySet<string>;
  /** break / continue nodes: a cognitive increment when they carry a label. */
  readonly jumps: ReadonlySet<string>;
  readonly gotos: ReadonlySet<string>;
  /** Binary-operator nodes whose operator token may be logical (`&&`, `||`, `and`, `or`, `??`). */
  readonly binaries: ReadonlySet<string>;
  readonly calls: ReadonlySet<string>;
  readonly parameterLists: ReadonlySet<string>;
  /** When set, only these children of a parameter list count as parameters. */
  readonly parameters?: ReadonlySet<string>;
  /** Named nodes counted as one Halstead operand with their whole text (strings, PHP `$x`). */
  readonly atoms: ReadonlySet<string>;
  /** Named leaves that are neither operands nor code (PHP's `<?php`). */
  readonly ignored: ReadonlySet<string>;
}

const set = (...xs: string[]): ReadonlySet<string> => new Set(xs);

const JS_BASE = {
  functions: set('function_declaration', 'generator_function_declaration', 'method_definition'),
  lambdas: set('arrow_function', 'function_expression', 'generator_function'),
  ifs: set('if_statement'),
  elseIfs: set(),
  elses: set('else_clause'),
  ternaries: set('ternary_expression'),
  loops: set('for_statement', 'for_in_statement', 'while_statement', 'do_statement'),
  switches: set('switch_statement'),
  cases: set('switch_case', 'switch_default'),
  catches: set('catch_clause'),
  jumps: set('break_statement', 'continue_statement'),
  gotos: set(),
  binaries: set('binary_expression'),
  calls: set('call_expression'),
  parameterLists: set('formal_parameters'),
  atoms: set('string', 'template_string', 'regex'),
  ignored: set(),
};

const C_BASE = {
  ...JS_BASE,
  functions: set('function_definition'),
  lambdas: set(),
  ternaries: set('conditional_expression'),
  loops: set('for_statement', 'while_statement', 'do_statement'),
  cases: set('case_statement'),
  catches: set(),
  gotos: set('goto_statement'),
  parameterLists: set('parameter_list'),
  parameters: set('parameter_declaration', 'variadic_parameter'),
  atoms: set('string_literal', 'char_literal', 'concatenated_string'),
};

/** Node kinds per language (verified against tree-sitter-wasms 0.1.13). */
export const NODE_KINDS: Readonly<Record<CodeLanguage, NodeKinds>> = {
  typescript: JS_BASE,
  tsx: JS_BASE,
  javascript: JS_BASE,
  python: {
    ...JS_BASE,
    functions: set('function_definition'),
    lambdas: set('lambda'),
    elseIfs: set('elif_clause'),
    ternaries: set('conditional_expression'),
    loops: set('for_statement', 'while_statement'),
    switches: set('match_statement'),
    cases: set('case_clause'),
    catches: set('except_clause', 'except_group_clause'),
    binaries: set('boolean_operator'),
    calls: set('call'),
    parameterLists: set('parameters', 'lambda_parameters'),
    atoms: set('string', 'concatenated_string'),
  },
  go: {
    ...JS_BASE,
    functions: set('function_declaration', 'method_declaration'),
    lambdas: set('func_literal'),
    elses: set(),
    ternaries: set(),
    loops: set('for_statement'),
    switches: set('expression_switch_statement', 'type_switch_statement', 'select_statement'),
    cases: set('expression_case', 'type_case', 'communication_case', 'default_case'),
    catches: set(),
    gotos: set('goto_statement'),
    parameterLists: set('parameter_list'),
    atoms: set('interpreted_string_literal', 'raw_string_literal', 'rune_literal'),
  },
  rust: {
    ...JS_BASE,
    functions: set('function_item'),
    lambdas: set('closure_expression'),
    ifs: set('if_expression'),
    ternaries: set(),
    loops: set('for_expression', 'while_expression', 'loop_expression'),
    switches: set('match_expression'),
    cases: set('match_arm'),
    catches: set(),
    jumps: set('break_expression', 'continue_expression'),
    parameterLists: set('parameters', 'closure_parameters'),
    atoms: set('string_literal', 'raw_string_literal', 'char_literal'),
  },
  java: {
    ...JS_BASE,
    functions: set(
      'method_declaration',
      'constructor_declaration',
      'compact_constructor_declaration',
    ),
    lambdas: set('lambda_expression'),
    elses: set(),
    loops: set('for_statement', 'enhanced_for_statement', 'while_statement', 'do_statement'),
    switches: set('switch_expression'),
    cases: set('switch_label'),
    calls: set('method_invocation'),
    parameterLists: set('formal_parameters', 'inferred_parameters'),
    atoms: set('string_literal', 'character_literal'),
  },
  c: C_BASE,
  cpp: {
    ...C_BASE,
    lambdas: set('lambda_expression'),
    loops: set('for_statement', 'for_range_loop', 'while_statement', 'do_statement'),
    catches: set('catch_clause'),
    parameters: set(
      'parameter_declaration',
      'optional_parameter_declaration',
      'variadic_parameter_declaration',
    ),
    atoms: set('string_literal', 'char_literal', 'concatenated_string', 'raw_string_literal'),
  },
  csharp: {
    ...JS_BASE,
    functions: set(
      'method_declaration',
      'constructor_declaration',
      'destructor_declaration',
      'operator_declaration',
      'conversion_operator_declaration',
      'local_function_statement',
      'accessor_declaration',
    ),
    lambdas: set('lambda_expression', 'anonymous_method_expression'),
    elses: set(),
    ternaries: set('conditional_expression'),
    loops: set('for_statement', 'for_each_statement', 'while_statement', 'do_statement'),
    switches: set('switch_statement', 'switch_expression'),
    cases: set(
      'case_switch_label',
      'case_pattern_switch_label',
      'default_switch_label',
      'switch_expression_arm',
    ),
    gotos: set('goto_statement'),
    calls: set('invocation_expression'),
    parameterLists: set('parameter_list'),
    parameters: set('parameter'),
    atoms: set('string_literal', 'verbatim_string_literal', 'character_literal'),
  },
  ruby: {
    ...JS_BASE,
    functions: set('method', 'singleton_method'),
    lambdas: set('lambda', 'block', 'do_block'),
    ifs: set('if', 'unless', 'if_modifier', 'unless_modifier'),
    elseIfs: set('elsif'),
    elses: set('else'),
    ternaries: set('conditional'),
    loops: set('while', 'until', 'for', 'while_modifier', 'until_modifier'),
    switches: set('case', 'case_match'),
    cases: set('when', 'in_clause'),
    catches: set('rescue', 'rescue_modifier'),
    jumps: set(),
    binaries: set('binary'),
    calls: set('call'),
    parameterLists: set('method_parameters', 'lambda_parameters', 'block_parameters'),
    atoms: set('string', 'simple_symbol', 'delimited_symbol', 'regex', 'heredoc_body'),
  },
  php: {
    ...JS_BASE,
    functions: set('function_definition', 'method_declaration'),
    lambdas: set('anonymous_function_creation_expression', 'arrow_function'),
    elseIfs: set('else_if_clause'),
    ternaries: set('conditional_expression'),
    loops: set('for_statement', 'foreach_statement', 'while_statement', 'do_statement'),
    switches: set('switch_statement', 'match_expression'),
    cases: set(
      'case_statement',
      'default_statement',
      'match_conditional_expression',
      'match_default_expression',
    ),
    gotos: set('goto_statement'),
    calls: set('function_call_expression', 'member_call_expression', 'scoped_call_expression'),
    atoms: set('string', 'encapsed_string', 'heredoc', 'nowdoc', 'variable_name'),
    ignored: set('php_tag'),
  },
  kotlin: {
    ...JS_BASE,
    functions: set('function_declaration', 'secondary_constructor', 'getter', 'setter'),
    lambdas: set('lambda_literal', 'anonymous_function'),
    ifs: set('if_expression'),
    elses: set(),
    ternaries: set(),
    loops: set('for_statement', 'while_statement', 'do_while_statement'),
    switches: set('when_expression'),
    cases: set('when_entry'),
    catches: set('catch_block'),
    jumps: set('jump_expression'),
    binaries: set('conjunction_expression', 'disjunction_expression', 'elvis_expression'),
    parameterLists: set('function_value_parameters', 'lambda_parameters'),
    atoms: set('string_literal', 'character_literal'),
  },
};
