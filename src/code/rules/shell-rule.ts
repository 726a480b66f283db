// The shell-injection rule: a command built at the call site (interpolated, concatenated with a
// non-literal, printf-formatted) and handed to a shell. Deliberately call-site only: a plain
// variable or constant argument is not judged (that would need data-flow analysis), so what is
// reported is a string visibly built from values.
import type { CodeLanguage } from '../languages.js';
import type { SyntaxNode } from '../parser.js';
import type { CallSite } from './calls.js';
import { builtString, staticText } from './strings.js';
import type { RawFinding, Rule, RuleContext } from './types.js';

function at(node: SyntaxNode, message: string): RawFinding {
  return { line: node.startPosition.row + 1, column: node.startPosition.column + 1, message };
}

const named = (node: SyntaxNode | null): SyntaxNode[] =>
  node === null ? [] : node.namedChildren.filter((c): c is SyntaxNode => c !== null);

const CHILD_PROCESS: ReadonlySet<string> = new Set(['child_process', 'node:child_process']);
const JS_EXEC: ReadonlySet<string> = new Set(['exec', 'execSync']);

/** The local names bound to child_process's exec/execSync, and to the module itself. */
interface ChildProcessNames {
  readonly functions: Set<string>;
  readonly modules: Set<string>;
}

function bindImport(node: SyntaxNode, names: ChildProcessNames): void {
  const source = node.childForFieldName('source');
  if (source === null || !CHILD_PROCESS.has(staticText(source) ?? '')) return;
  const clause = named(node).find((c) => c.type === 'import_clause') ?? null;
  for (const part of named(clause)) {
    if (part.type === 'identifier') names.modules.add(part.text);
    if (part.type === 'namespace_import') names.modules.add(named(part)[0]?.text ?? '');
    for (const spec of part.type === 'named_imports' ? named(part) : []) {
      const name = spec.childForFieldName('name')?.text ?? '';
      const local = spec.childForFieldName('alias')?.text ?? name;
      if (JS_EXEC.has(name)) names.functions.add(local);
    }
  }
}

function bindRequire(node: SyntaxNode, names: ChildProcessNames): void {
  const value = node.childForFieldName('value');
  const arg = named(value?.childForFieldName('arguments') ?? null)[0];
  const isRequire =
    value?.type === 'call_expression' && value.childForFieldName('function')?.text === 'require';
  if (!isRequire || arg === undefined || !CHILD_PROCESS.has(staticText(arg) ?? '')) return;
  const target = node.childForFieldName('name');
  if (target?.type === 'identifier') names.modules.add(target.text);
  for (const part of target?.type === 'object_pattern' ? named(target) : []) {
    if (part.type === 'shorthand_property_identifier_pattern' && JS_EXEC.has(part.text)) {
      names.functions.add(part.text);
    }
    const key = part.childForFieldName('key')?.text ?? '';
    if (part.type === 'pair_pattern' && JS_EXEC.has(key)) {
      names.functions.add(part.childForFieldName('value')?.text ?? key);
    }
  }
}

function childProcessNames(root: SyntaxNode): ChildProcessNames {
  const names: ChildProcessNames = { functions: new Set(), modules: new Set() };
  for (const node of root.descendantsOfType(['import_statement', 'variable_declarator'])) {
    if (node?.type === 'import_statement') bindImport(node, names);
    else if (node !== null) bindRequire(node, names);
  }
  return names;
}

const REQUIRE_CP = /^require\(["'`](node:)?child_process["'`]\)$/;

/** A shell program followed by its "run this string" flag (`sh -c`, `cmd /c`). */
const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  '/bin/sh',
  '/bin/bash',
  'cmd',
  'cmd.exe',
  'powershell',
  'pwsh',
]);
const SHELL_FLAGS: ReadonlySet<string> = new Set(['-c', '/c', '/C', '-Command']);

/** The built command of `sh -c <built>` among the arguments, if any. */
function shellDashC(args: readonly SyntaxNode[], language: CodeLanguage): SyntaxNode | null {
  for (let i = 0; i + 2 < args.length; i += 1) {
    const [shell, flag, command] = [args[i], args[i + 1], args[i + 2]];
    if (shell === undefined || flag === undefined || command === undefined) continue;
    const isShell = SHELLS.has(staticText(shell) ?? '') && SHELL_FLAGS.has(staticText(flag) ?? '');
    if (isShell && builtString(command, language) !== null) return command;
  }
  return null;
}

/** The built command a call hands to a shell, or null. */
type ShellCheck = (call: CallSite, language: CodeLanguage) => SyntaxNode | null;

const built = (node: SyntaxNode | undefined, language: CodeLanguage): SyntaxNode | null =>
  node !== undefined && builtString(node, language) !== null ? node : null;

const PY_SHELL_ALWAYS = new Set([
  'os.system',
  'os.popen',
  'subprocess.getoutput',
  'subprocess.getstatusoutput',
]);
const PY_SUBPROCESS = new Set(['run', 'call', 'check_call', 'check_output', 'Popen']);
const PHP_SHELL = new Set(['exec', 'shell_exec', 'system', 'passthru', 'popen', 'proc_open']);
const RUBY_SHELL = new Set(['system', 'exec', 'spawn']);
const RUBY_OPEN = new Set([
  'IO.popen',
  'Open3.capture2',
  'Open3.capture2e',
  'Open3.capture3',
  'Open3.popen2',
  'Open3.popen3',
]);

const SHELL_CHECKS: Partial<Record<CodeLanguage, ShellCheck>> = {
  python(call, language) {
    if (PY_SHELL_ALWAYS.has(call.callee)) return built(call.args[0], language);
    const shell = call.keywords.get('shell')?.text === 'True';
    const subprocess = call.receiver === 'subprocess' && PY_SUBPROCESS.has(call.name);
    return shell && subprocess ? built(call.args[0], language) : null;
  },
  php: (call, language) =>
    call.receiver === null && PHP_SHELL.has(call.name) ? built(call.args[0], language) : null,
  ruby(call, language) {
    const kernel = call.receiver === null && RUBY_SHELL.has(call.name);
    const single = call.args.length === 1; // several arguments run without a shell
    return (kernel || RUBY_OPEN.has(call.callee)) && single ? built(call.args[0], language) : null;
  },
  go: (call, language) =>
    call.receiver === 'exec' && /^Command(Context)?$/.test(call.name)
      ? shellDashC(call.args, language)
      : null,
  java(call, language) {
    if (call.name === 'exec' && call.receiver?.endsWith('getRuntime()') === true) {
      return built(call.args[0], language);
    }
    return call.isNew && call.name === 'ProcessBuilder' ? shellDashC(call.args, language) : null;
  },
};

function jsShell(context: RuleContext): RawFinding[] {
  const names = childProcessNames(context.root);
  return context.calls().flatMap((call) => {
    const direct = call.receiver === null && names.functions.has(call.name);
    const module =
      call.receiver !== null &&
      (names.modules.has(call.receiver) || REQUIRE_CP.test(call.receiver));
    if (!direct && !(module && JS_EXEC.has(call.name))) return [];
    const command = built(call.args[0], context.language);
    return command === null
      ? []
      : [at(command, `shell command built from values passed to ${call.callee}`)];
  });
}

/** Backticks with interpolation (PHP `` `ls $d` ``, Ruby `` `ls #{d}` `` and `%x()`). */
function backticks(context: RuleContext): RawFinding[] {
  const types = context.language === 'php' ? ['shell_command_expression'] : ['subshell'];
  return context.root
    .descendantsOfType(types)
    .filter((n): n is SyntaxNode => n !== null)
    .filter((n) =>
      named(n).some((c) => c.type !== 'string_content' && c.type !== 'escape_sequence'),
    )
    .map((n) => at(n, 'shell command built from values in backticks'));
}

export const JS_LANGUAGES: readonly CodeLanguage[] = ['typescript', 'tsx', 'javascript'];

export const SHELL_RULE: Rule = {
  id: 'shell-injection',
  category: 'security',
  severity: 'warning',
  languages: [...JS_LANGUAGES, ...(Object.keys(SHELL_CHECKS) as CodeLanguage[])],
  description:
    'A shell command built from values at the call site (interpolation, concatenation, formatting) and run through a shell: child_process exec/execSync (JS/TS), os.system/os.popen and subprocess with shell=True (Python), exec/system/shell_exec/passthru and backticks (PHP), system/exec/spawn with one string, IO.popen, Open3 and backticks (Ruby), `sh -c` through exec.Command (Go) or ProcessBuilder, and Runtime.exec (Java).',
  check(context) {
    if (JS_LANGUAGES.includes(context.language)) return jsShell(context);
    const check = SHELL_CHECKS[context.language];
    if (check === undefined) return [];
    const calls = context.calls().flatMap((call) => {
      const command = check(call, context.language);
      return command === null
        ? []
        : [at(command, `shell command built from values passed to ${call.callee}`)];
    });
    const quoted =
      context.language === 'php' || context.language === 'ruby' ? backticks(context) : [];
    return [...calls, ...quoted];
  },
};
