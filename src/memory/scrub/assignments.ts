// `key=value`, `key: value`, `"key": "value"` and `KEY=value` where the key names a secret
// (DB_PASSWORD, githubToken, client_secret, x-api-key, …). Only the value is redacted, so the
// key keeps its meaning. Values are judged by ./values.ts; keys by their last word(s).
import { type Detection, PRIORITY } from './ranges.js';
import { looksLikeSecret } from './values.js';

/**
 * key (optionally quoted) · separator · value (double-, single-, back-quoted or bare). Keys start
 * at a word boundary so the scan is linear; bare values stop at whitespace, quotes, `,` and `;`.
 */
const ASSIGNMENT_SOURCE =
  /(?<![A-Za-z0-9_.-])(["']?)([A-Za-z][A-Za-z0-9_.-]{0,63})\1([ \t]*)(:=|=>|=|:)([ \t]*)(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|`([^`\n]{1,512})`|([^\s"'`,;]{1,512}))/
    .source;

/** Last words that name a secret on their own (`DB_PASSWORD`, `PGPASSWORD`, `accessToken`). */
const SECRET_SUFFIXES: readonly [string, string][] = [
  ['password', 'password'],
  ['passwd', 'password'],
  ['passphrase', 'password'],
  ['pwd', 'password'],
  ['apikey', 'api-key'],
  ['secret', 'secret'],
  ['token', 'token'],
];
/** Whole last words (too short or too common to match as a suffix). */
const SECRET_WORDS: Readonly<Record<string, string>> = {
  pass: 'password',
  credentials: 'secret',
  creds: 'secret',
  authorization: 'token',
};
/** `<qualifier>_key` names a secret (`api_key`, `PRIVATE_KEY`, `AccountKey`); `sort_key` does not. */
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'secret',
  'private',
  'signing',
  'encryption',
  'master',
  'client',
  'account',
  'shared',
  'app',
  'auth',
  'session',
]);

/** Splits `DB_PASSWORD`, `githubToken`, `x-api-key`, `aws.secret.key` into lowercase words. */
function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** The sentinel kind when `key` names a secret, else undefined. */
export function secretKindOfKey(key: string, extraWords: ReadonlySet<string>): string | undefined {
  const words = wordsOf(key);
  const last = words.at(-1) ?? '';
  const before = words.at(-2) ?? '';
  if (last === 'key' && KEY_QUALIFIERS.has(before)) {
    if (before === 'private') return 'private-key';
    if (before === 'api') return 'api-key';
    return words.includes('aws') ? 'aws-secret-key' : 'secret';
  }
  const word = SECRET_WORDS[last];
  if (word !== undefined) return word;
  if (extraWords.has(last)) return 'secret';
  return SECRET_SUFFIXES.find(([suffix]) => last.endsWith(suffix))?.[1];
}

const CLOSERS: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{', '>': '<' };

/**
 * Drops sentence punctuation (`.,:;`) after a bare value (`password=hunter22.`), and a closing bracket
 * only when the value never opened it (`(token=abc123)`, but not `${TOKEN}`).
 */
function trimBare(bare: string): string {
  let value = bare.replace(/[.,:;]+$/, '');
  for (let last = value.at(-1); last !== undefined && last in CLOSERS; last = value.at(-1)) {
    if (value.includes(CLOSERS[last] ?? '')) break;
    value = value.slice(0, -1);
  }
  return value;
}

interface Value {
  /** The candidate secret, trimmed. */
  value: string;
  /** Offset of `value` in the text. */
  start: number;
  /** Offset of the raw value (quote included): the scan resumes here. */
  resume: number;
  /** Quoted, or `=` with no spaces: see looksLikeSecret. */
  strong: boolean;
}

/** Reads the value half of an ASSIGNMENT match. */
function valueOf(m: RegExpExecArray, text: string): Value {
  const matchEnd = m.index + m[0].length;
  const quoted = m[6] ?? m[7] ?? m[8];
  if (quoted !== undefined) {
    const start = matchEnd - 1 - quoted.length;
    return { value: quoted, start, resume: start - 1, strong: true };
  }
  const raw = m[9] ?? '';
  const start = matchEnd - raw.length;
  // In a query string (`?a=1&token=…`) a bare value ends at the next `&`.
  const inQuery = m.index > 0 && '?&'.includes(text.charAt(m.index - 1));
  const value = trimBare(inQuery ? (raw.split('&')[0] ?? '') : raw);
  const strong = m[3] === '' && m[5] === '' && m[4] !== ':';
  return { value, start, resume: start, strong };
}

/**
 * Finds assignments to secret-named keys. `extraWords` adds team-specific key words (lowercase,
 * matched as the key's last word).
 */
export function detectAssignments(text: string, extraWords: ReadonlySet<string>): Detection[] {
  const found: Detection[] = [];
  // A fresh regex per call: exec() moves lastIndex, and no state may outlive the call.
  const re = new RegExp(ASSIGNMENT_SOURCE, 'g');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const { value, start, resume, strong } = valueOf(m, text);
    // Resume at the value, so `note: password=…` and `?a=1&token=…` still find the inner pair.
    re.lastIndex = resume;
    const kind = secretKindOfKey(m[2] ?? '', extraWords);
    if (kind === undefined || !looksLikeSecret(value, strong)) continue;
    found.push({ kind, start, end: start + value.length, priority: PRIORITY.assignment });
  }
  return found;
}
