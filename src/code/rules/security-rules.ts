// The call-pattern security rules: code evaluated from strings (eval and its kin) and broken
// hash functions (MD5, SHA-1). Each reads the file's call sites once; names are matched with
// their receivers, so `model.eval()` or `ast.literal_eval` are never taken for `eval`.
import type { CodeLanguage } from '../languages.js';
import type { CallSite } from './calls.js';
import { staticText } from './strings.js';
import type { RawFinding, Rule, RuleContext } from './types.js';

function at(call: CallSite, message: string): RawFinding {
  const { row, column } = call.node.startPosition;
  return { line: row + 1, column: column + 1, message };
}

const lastSegment = (text: string | null): string => text?.split(/::|\\|\.|->/).pop() ?? '';

const JS_GLOBALS: ReadonlySet<string> = new Set(['window', 'globalThis', 'self', 'global']);
const TIMERS: ReadonlySet<string> = new Set(['setTimeout', 'setInterval']);
const RUBY_EVALS: ReadonlySet<string> = new Set(['instance_eval', 'class_eval', 'module_eval']);

/** What a call evaluates, when it evaluates code from a string; null otherwise. */
type EvalCheck = (call: CallSite) => string | null;

function jsEval(call: CallSite): string | null {
  const global = call.receiver === null || JS_GLOBALS.has(call.receiver);
  if (!global) return null;
  if (call.name === 'eval' && !call.isNew) return 'eval';
  if (call.name === 'Function') return call.isNew ? 'new Function' : 'Function';
  const first = call.args[0];
  const isString = first !== undefined && /string/.test(first.type);
  return TIMERS.has(call.name) && isString ? `${call.name} with a string` : null;
}

const EVAL_CHECKS: Partial<Record<CodeLanguage, EvalCheck>> = {
  typescript: jsEval,
  tsx: jsEval,
  javascript: jsEval,
  python: (call) =>
    call.receiver === null && (call.name === 'eval' || call.name === 'exec') ? call.name : null,
  php: (call) =>
    call.receiver === null && (call.name === 'eval' || call.name === 'create_function')
      ? call.name
      : null,
  ruby(call) {
    const kernel =
      call.receiver === null || call.receiver === 'Kernel' || call.receiver === 'binding';
    if (call.name === 'eval' && kernel) return 'eval';
    const code = call.args[0]; // a block (`&blk` or `{ … }`) is code, not a string
    const fromString = code !== undefined && code.type !== 'block_argument';
    return RUBY_EVALS.has(call.name) && fromString ? `${call.name} with a string` : null;
  },
};

const evalUsage: Rule = {
  id: 'eval-usage',
  category: 'security',
  severity: 'warning',
  languages: Object.keys(EVAL_CHECKS) as CodeLanguage[],
  description:
    'Code evaluated from a string: eval, new Function, setTimeout/setInterval with a string (JS/TS), eval/exec (Python), eval/create_function (PHP), eval and instance_/class_/module_eval with a string (Ruby). Only the global or Kernel functions count, never a method of the same name.',
  check(context) {
    const check = EVAL_CHECKS[context.language];
    if (check === undefined) return [];
    return context.calls().flatMap((call) => {
      const what = check(call);
      return what === null ? [] : [at(call, `${what} runs code built from a string`)];
    });
  },
};

const WEAK: ReadonlySet<string> = new Set(['md2', 'md4', 'md5', 'sha1', 'sha-1', 'sha']);

/** The lowercased static text of the call's first argument, when it names a weak algorithm. */
function weakArgument(call: CallSite): string | null {
  const first = call.args[0];
  const text = first === undefined ? null : staticText(first)?.toLowerCase();
  return text !== undefined && text !== null && WEAK.has(text) ? text : null;
}

type HashCheck = (call: CallSite) => string | null;

const JAVA_DIGEST = /^(md5|sha1|sha)(Hex)?$/;

function javaHash(call: CallSite): string | null {
  const owner = lastSegment(call.receiver);
  if (owner === 'MessageDigest' && call.name === 'getInstance') return weakArgument(call);
  return owner === 'DigestUtils' && JAVA_DIGEST.test(call.name) ? call.name : null;
}

const CSHARP_TYPES = /^(MD5|SHA1)(CryptoServiceProvider|Managed|Cng)?$/;

const HASH_CHECKS: Partial<Record<CodeLanguage, HashCheck>> = {
  typescript: (call) => (call.name === 'createHash' ? weakArgument(call) : null),
  tsx: (call) => (call.name === 'createHash' ? weakArgument(call) : null),
  javascript: (call) => (call.name === 'createHash' ? weakArgument(call) : null),
  python(call) {
    if (call.receiver !== 'hashlib' || call.keywords.get('usedforsecurity')?.text === 'False') {
      return null;
    }
    if (call.name === 'new') return weakArgument(call);
    return call.name === 'md5' || call.name === 'sha1' ? call.name : null;
  },
  java: javaHash,
  kotlin: javaHash,
  go: (call) =>
    (call.receiver === 'md5' || call.receiver === 'sha1') && /^(New|Sum)$/.test(call.name)
      ? `${call.receiver}.${call.name}`
      : null,
  php(call) {
    if (call.receiver !== null) return null;
    if (/^(md5|sha1)(_file)?$/.test(call.name)) return call.name;
    return /^hash(_file|_init|_hmac)?$/.test(call.name) && call.name !== 'hash_hmac'
      ? weakArgument(call)
      : null;
  },
  csharp(call) {
    if (call.isNew) return CSHARP_TYPES.test(call.name) ? call.name : null;
    const owner = lastSegment(call.receiver);
    return /^(MD5|SHA1)$/.test(owner) && /^(Create|HashData)$/.test(call.name) ? owner : null;
  },
  ruby(call) {
    const owner = lastSegment(call.receiver);
    const digest = call.receiver?.includes('Digest') === true;
    if (digest && (owner === 'MD5' || owner === 'SHA1')) return owner;
    return digest && owner === 'Digest' && call.name === 'new' ? weakArgument(call) : null;
  },
  rust(call) {
    if (call.callee === 'md5::compute') return 'md5';
    const owner = lastSegment(call.receiver);
    return /^(Md5|Sha1)$/.test(owner) && /^(new|digest)$/.test(call.name) ? owner : null;
  },
};

const weakHash: Rule = {
  id: 'weak-hash',
  category: 'security',
  severity: 'warning',
  languages: Object.keys(HASH_CHECKS) as CodeLanguage[],
  description:
    'MD5 or SHA-1 (MD2, MD4) asked for by name: broken for signatures, passwords and integrity against an attacker. Python calls that pass usedforsecurity=False are exempt; elsewhere a checksum that is not for security is worth a comment or a faster non-cryptographic hash.',
  check(context: RuleContext) {
    const check = HASH_CHECKS[context.language];
    if (check === undefined) return [];
    return context.calls().flatMap((call) => {
      const what = check(call);
      return what === null ? [] : [at(call, `weak hash (${what}): use SHA-256 or better`)];
    });
  },
};

/** The call-pattern security rules, in listing order. */
export const SECURITY_RULES: readonly Rule[] = [evalUsage, weakHash];
