// Value judgements shared by the context detectors (key=value, URL credentials, bearer
// headers): is this a placeholder, and does it look like a secret rather than a word?
// Pure functions only; no detector state lives here.

/** Values that are wrapped as a template or variable: `<…>`, `${…}`, `{{…}}`, `$VAR`, `[…]`. */
const TEMPLATE =
  /^(?:<.*>|\$\{.*\}|\{\{.*\}\}|\{.*\}|\$\(.*\)|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_]+%|\[.*\])$/s;

/** Substrings that mark a documentation or example value. */
const PLACEHOLDER_PART =
  /example|placeholder|change[-_]?me|^your[-_]|[-_]here$|redacted|replace[-_]?(?:me|with)/i;

/** Whole values that are words, not secrets. */
const PLACEHOLDER_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'secret',
  'token',
  'apikey',
  'api_key',
  'null',
  'nil',
  'none',
  'undefined',
  'true',
  'false',
  'empty',
  'hidden',
  'masked',
  'required',
  'optional',
  'string',
  'test',
]);

/**
 * True when a value is a placeholder rather than a credential: templates (`<your-password>`,
 * `${TOKEN}`, `{{token}}`, `$TOKEN`, `[REDACTED:…]`), a single repeated character (`xxx`,
 * `****`), ellipses, example markers (`changeme`, `your_token_here`, `…EXAMPLE…`), or a bare
 * word from the list above.
 */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v === '' || TEMPLATE.test(v)) return true;
  if (/^(.)\1*$/s.test(v) || /^(?:\.{2,}|…)/.test(v)) return true;
  if (PLACEHOLDER_PART.test(v)) return true;
  return PLACEHOLDER_WORDS.has(v.toLowerCase());
}

/** True for a file-system path or a URL without credentials: config, not a secret. */
function isPathOrUrl(value: string): boolean {
  return /^(?:~|\.{1,2})?\/[\w./-]*$/.test(value) || /^[a-z][a-z0-9+.-]*:\/\/[^@]*$/i.test(value);
}

/**
 * True for code, not a credential: a call or an index (`getpass.getpass(`, `sys.argv[2]`), an
 * unclosed structure (`[WORD`), a format string (`%s`), a YAML tag (`!vault`), or a dotted or
 * snake_case name without digits (`self.password`, `aws_session_token`): what `password=…`
 * looks like in source code.
 */
function isCodeReference(value: string): boolean {
  if (/^[A-Za-z_$][\w$.]*[([]/.test(value) || /^[[({]/.test(value)) return true;
  if (/%[sdr(]|\{\d*\}/.test(value) || /^![A-Za-z]+$/.test(value)) return true;
  return /^[A-Za-z_$][\w$.]*$/.test(value) && /[._]/.test(value) && !/\d/.test(value);
}

/**
 * True when an assignment value looks like a credential. `strong` is the caller's context:
 * a quoted value or an `=` with no spaces (env files, flags, query strings). In a weak context
 * (`key: value`, `key = value` in prose) the value must also carry a digit, a symbol or an
 * inner case change, or be at least 20 characters, so `password: required` stays prose.
 * Pure numbers (counts, ports, timeouts), code references and values with inner whitespace
 * are never secrets.
 */
export function looksLikeSecret(value: string, strong: boolean): boolean {
  if (value.length < (strong ? 4 : 6) || /\s/.test(value)) return false;
  if (/^[\d.,_:-]+$/.test(value) || isPlaceholder(value)) return false;
  if (isPathOrUrl(value) || isCodeReference(value)) return false;
  if (strong || value.length >= 20) return true;
  return /[\d\W_]/.test(value) || /[a-z][A-Z]/.test(value);
}

/**
 * True when a token body mixes character classes (letters with digits, or both cases), as
 * random credentials do and prose (`sk-this-is-not-a-key`) does not.
 */
export function looksRandom(value: string): boolean {
  const letters = /[A-Za-z]/.test(value);
  return (letters && /\d/.test(value)) || (/[a-z]/.test(value) && /[A-Z]/.test(value));
}
