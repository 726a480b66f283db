// Our own detectors for what secretlint's preset misses or only partly covers: token formats
// with a fixed prefix, PEM private-key blocks, credentials inside URLs and Authorization
// headers. Every pattern is linear: no nested quantifiers, bounded lazy scans.
import { type Detection, PRIORITY } from './ranges.js';
import { looksRandom, isPlaceholder } from './values.js';

/** Not preceded by a token character: lets a secret follow CJK text or an emoji directly. */
const B = '(?<![A-Za-z0-9_-])';
/** Not followed by a token character. */
const E = '(?![A-Za-z0-9_-])';

interface TokenFormat {
  kind: string;
  pattern: RegExp;
  /** Require a random-looking body (see `looksRandom`). */
  mixed: boolean;
}

const rx = (source: string): RegExp => new RegExp(source, 'g');

/** Fixed-prefix token formats. Order does not matter; overlaps merge later. */
const TOKEN_FORMATS: readonly TokenFormat[] = [
  { kind: 'anthropic-key', pattern: rx(`${B}sk-ant-[A-Za-z0-9_-]{20,}${E}`), mixed: true },
  {
    kind: 'openai-key',
    pattern: rx(`${B}sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}${E}`),
    mixed: true,
  },
  {
    kind: 'stripe-key',
    pattern: rx(`${B}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}${E}`),
    mixed: true,
  },
  { kind: 'stripe-key', pattern: rx(`${B}whsec_[A-Za-z0-9]{24,}${E}`), mixed: true },
  { kind: 'gcp-key', pattern: rx(`${B}AIza[A-Za-z0-9_-]{35}${E}`), mixed: false },
  { kind: 'github-token', pattern: rx(`${B}gh[pousr]_[A-Za-z0-9]{30,251}${E}`), mixed: true },
  { kind: 'github-token', pattern: rx(`${B}github_pat_[A-Za-z0-9_]{22,251}${E}`), mixed: true },
  { kind: 'gitlab-token', pattern: rx(`${B}glpat-[A-Za-z0-9_-]{20,}${E}`), mixed: true },
  { kind: 'huggingface-token', pattern: rx(`${B}hf_[A-Za-z0-9]{30,}${E}`), mixed: true },
  { kind: 'slack-token', pattern: rx(`${B}xox[abposr]-[A-Za-z0-9-]{10,}${E}`), mixed: true },
  { kind: 'npm-token', pattern: rx(`${B}npm_[A-Za-z0-9]{36}${E}`), mixed: true },
  {
    kind: 'jwt',
    pattern: rx(`${B}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*${E}`),
    mixed: false,
  },
];

function detectTokenFormats(text: string): Detection[] {
  const found: Detection[] = [];
  for (const { kind, pattern, mixed } of TOKEN_FORMATS) {
    for (const m of text.matchAll(pattern)) {
      if (mixed && !looksRandom(m[0])) continue;
      found.push({ kind, start: m.index, end: m.index + m[0].length, priority: PRIORITY.format });
    }
  }
  return found;
}

/**
 * A PEM private key (RSA, EC, DSA, OpenSSH, PGP, PKCS#8, encrypted) through its END line, or
 * a truncated one through its last base64 line. Certificates and public keys are not secrets.
 * The body never crosses another `-----` line, so a run of BEGINs without END stays linear.
 */
const PEM =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?:[^-]|-(?!----)){0,16384}?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?:(?:\r?\n|\\n)[A-Za-z0-9+/=]{8,})+)/g;

function detectPemBlocks(text: string): Detection[] {
  const found: Detection[] = [];
  for (const m of text.matchAll(PEM)) {
    // A documentation block (`...`, `<key>`) has no run of key material.
    if (!/[A-Za-z0-9+/]{32}/.test(m[0])) continue;
    found.push({
      kind: 'private-key',
      start: m.index,
      end: m.index + m[0].length,
      priority: PRIORITY.format,
    });
  }
  return found;
}

/** `scheme://user:password@host`: the password is the secret; the user name stays. */
const URL_CREDENTIALS =
  /(?<![A-Za-z0-9+.-])[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/?#@"'<>[\]]{1,256}:([^\s/?#@"'<>[\]]{1,256})@/gi;

function detectUrlCredentials(text: string): Detection[] {
  const found: Detection[] = [];
  for (const m of text.matchAll(URL_CREDENTIALS)) {
    const password = m[1] ?? '';
    if (isPlaceholder(password)) continue;
    const end = m.index + m[0].length - 1;
    const start = end - password.length;
    found.push({ kind: 'basic-auth-url', start, end, priority: PRIORITY.context });
  }
  return found;
}

/** `Authorization: <scheme> <credential>` and a bare `Bearer <token>`. */
const AUTH_HEADER =
  /(?<![\w-])(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(bearer|basic|token|digest|bot)\s+)?([A-Za-z0-9._~+/:-]{8,}=*)/gi;
const BARE_BEARER = /(?<![\w-])bearer\s+([A-Za-z0-9._~+/-]{16,}=*)/gi;

function detectAuthHeaders(text: string): Detection[] {
  const found: Detection[] = [];
  const push = (m: RegExpMatchArray, index: number, scheme: string | undefined) => {
    const credential = m[index] ?? '';
    if (isPlaceholder(credential) || !looksRandom(credential)) return;
    const end = (m.index ?? 0) + m[0].length;
    const kind = scheme?.toLowerCase() === 'basic' ? 'basic-auth' : 'bearer-token';
    found.push({ kind, start: end - credential.length, end, priority: PRIORITY.context });
  };
  for (const m of text.matchAll(AUTH_HEADER)) push(m, 2, m[1]);
  for (const m of text.matchAll(BARE_BEARER)) push(m, 1, 'bearer');
  return found;
}

/** Every pattern detector over `text`. */
export function detectPatterns(text: string): Detection[] {
  return [
    ...detectTokenFormats(text),
    ...detectPemBlocks(text),
    ...detectUrlCredentials(text),
    ...detectAuthHeaders(text),
  ];
}
