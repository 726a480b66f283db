// search_code's `filters` (the spec's `string[]`) and `extensions`: a small `key:value`
// syntax turned into the store's CodeFilter criteria. Values of one key are alternatives (OR),
// different keys must all hold (AND). Anything unknown or malformed is refused, naming the
// field, so a typo never silently searches everything.
import { InvalidInputError } from '../../shared/index.js';
import { CHUNK_KINDS } from '../chunk/index.js';
import { CODE_LANGUAGES } from '../languages.js';
import { CODE_SEARCH_DEFAULTS } from './types.js';

/** The criteria filters add to a search (everything of CodeFilter but the collections). */
export interface ParsedFilters {
  extensions: string[];
  pathPrefixes: string[];
  branches: string[];
  languages: (string | null)[];
  kinds: string[];
  symbols: string[];
}

export const FILTER_KEYS = ['path', 'lang', 'branch', 'kind', 'symbol', 'ext'] as const;

/** Other spellings of a key. */
const KEY_ALIASES: Readonly<Record<string, (typeof FILTER_KEYS)[number]>> = {
  language: 'lang',
  extension: 'ext',
};

/** Other spellings of a language; `text` (and these) mean a file without a grammar. */
const LANGUAGE_ALIASES: Readonly<Record<string, string | null>> = {
  ts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  py: 'python',
  golang: 'go',
  rs: 'rust',
  cs: 'csharp',
  'c#': 'csharp',
  'c++': 'cpp',
  cxx: 'cpp',
  rb: 'ruby',
  kt: 'kotlin',
  text: null,
  plain: null,
  none: null,
};

/** `branch:@` is the work tree (`@` is not a valid branch name). */
export const WORK_TREE_BRANCH = '@';

const EXTENSION = /^\*?\.?[\p{L}\p{N}_+\-.]{1,32}$/u;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

const refuse = (field: 'filters' | 'extensions', message: string): never => {
  throw new InvalidInputError(message, field);
};

const shown = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

function language(value: string): string | null {
  const v = value.toLowerCase();
  if (v in LANGUAGE_ALIASES) return LANGUAGE_ALIASES[v] ?? null;
  if ((CODE_LANGUAGES as readonly string[]).includes(v)) return v;
  return refuse(
    'filters',
    `unknown language ${shown(value)} (known: ${CODE_LANGUAGES.join(', ')}, text)`,
  );
}

function kind(value: string): string {
  const v = value.toLowerCase();
  if ((CHUNK_KINDS as readonly string[]).includes(v)) return v;
  return refuse('filters', `unknown kind ${shown(value)} (known: ${CHUNK_KINDS.join(', ')})`);
}

function extension(value: string, field: 'filters' | 'extensions'): string {
  const v = value.trim();
  if (!EXTENSION.test(v)) refuse(field, `${shown(value)} is not a file extension (ts, .ts, *.ts)`);
  return v;
}

/** One `key:value` into `into`. */
function addFilter(into: ParsedFilters, raw: string): void {
  if (typeof raw !== 'string') refuse('filters', 'every filter must be a string');
  if (raw.length > CODE_SEARCH_DEFAULTS.maxFilterChars)
    refuse('filters', `a filter is longer than ${CODE_SEARCH_DEFAULTS.maxFilterChars} characters`);
  if (CONTROL.test(raw)) refuse('filters', `${shown(raw)} holds control characters`);
  const text = raw.trim();
  if (/^[-!]/.test(text)) refuse('filters', `${shown(raw)}: negation is not supported`);
  const colon = text.indexOf(':');
  if (colon <= 0)
    refuse('filters', `${shown(raw)} is not key:value (keys: ${FILTER_KEYS.join(', ')})`);
  const word = text.slice(0, colon).trim().toLowerCase();
  const key = KEY_ALIASES[word] ?? word;
  const value = text.slice(colon + 1).trim();
  if (value === '') refuse('filters', `${shown(raw)} has no value`);
  const add: Record<(typeof FILTER_KEYS)[number], () => void> = {
    path: () => {
      const prefix = value.replace(/^\.?\/+/, '');
      if (prefix !== '') into.pathPrefixes.push(prefix);
    },
    lang: () => into.languages.push(language(value)),
    branch: () => into.branches.push(value === WORK_TREE_BRANCH ? '' : value),
    kind: () => into.kinds.push(kind(value)),
    symbol: () => into.symbols.push(value),
    ext: () => into.extensions.push(extension(value, 'filters')),
  };
  if (!Object.hasOwn(add, key))
    refuse('filters', `unknown filter key ${shown(word)} (known: ${FILTER_KEYS.join(', ')})`);
  add[key as keyof typeof add]();
}

/**
 * Parses `filters` and `extensions` into filter criteria.
 * @throws InvalidInputError (field `filters` or `extensions`) for too many entries, an unknown
 * key, language or kind, a malformed entry, or control characters.
 */
export function parseFilters(
  filters: readonly string[] = [],
  extensions: readonly string[] = [],
): ParsedFilters {
  const { maxFilters, maxExtensions } = CODE_SEARCH_DEFAULTS;
  if (!Array.isArray(filters)) refuse('filters', 'must be a list of strings');
  if (!Array.isArray(extensions)) refuse('extensions', 'must be a list of strings');
  if (filters.length > maxFilters) refuse('filters', `at most ${maxFilters} filters`);
  if (extensions.length > maxExtensions) refuse('extensions', `at most ${maxExtensions}`);
  const out: ParsedFilters = {
    extensions: extensions.map((e) =>
      typeof e === 'string' ? extension(e, 'extensions') : refuse('extensions', 'must be strings'),
    ),
    pathPrefixes: [],
    branches: [],
    languages: [],
    kinds: [],
    symbols: [],
  };
  for (const f of filters) addFilter(out, f);
  return out;
}

/** True when the criteria narrow below whole collections. */
export const narrowsSearch = (f: ParsedFilters): boolean =>
  Object.values(f).some((list: readonly unknown[]) => list.length > 0);
