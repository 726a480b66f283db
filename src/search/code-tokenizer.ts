// The code tokenizer: identifiers split into their parts (camelCase, PascalCase, HTTPServer,
// snake_case, digit boundaries), compounds (dotted.names, paths, kebab-case, a::b, a->b) into
// their segments, each whole identifier and compound kept as a term too; case folded, parts
// stemmed like prose. Pure computation: no I/O, no state beyond a bounded stem memo.
import { stemmer } from 'stemmer';

import { CODE_QUERY_STOPWORDS, synonymGroups } from './code-vocabulary.js';
import type { Token, Tokenizer } from './tokenizer.js';

/** Segments joined by `.`, `::`, `->`, `/`, `\` or a hyphen between letters. */
const COMPOUND =
  /[\p{L}\p{N}\p{M}_]+(?:(?:\.|::|->|\/|\\|(?<=\p{L})-(?=\p{L}))[\p{L}\p{N}\p{M}_]+)*/gu;
const SEGMENT = /[\p{L}\p{N}\p{M}_]+/gu;
const CONNECTOR = /[.:>/\\-]/;
/** Longer compounds are not kept whole (generated paths, long attribute chains). */
const MAX_WHOLE = 96;
/** Longer segments (hashes, base64, minified names) are one term, never split or stemmed. */
const MAX_SPLIT = 64;
const MAX_QUERY_TERMS = 32;
const MAX_QUERY_CHARS = 16_384;

const UPPER = /\p{Lu}/u;
const DIGIT = /\p{N}/u;

/** True when every UTF-16 unit of `s` is ASCII. */
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** Lower case without diacritics (ASCII skips the Unicode decomposition). */
const fold = (raw: string): string =>
  isAscii(raw) ? raw.toLowerCase() : raw.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');

const STEM_MEMO_LIMIT = 50_000;
const stemMemo = new Map<string, string>();

/** Porter stem of a folded ASCII word of 3–64 letters (as the prose tokenizer); others unchanged. */
function stem(word: string): string {
  const known = stemMemo.get(word);
  if (known !== undefined) return known;
  const out = word.length <= 2 || word.length > 64 || !/^[a-z]+$/.test(word) ? word : stemmer(word);
  if (stemMemo.size >= STEM_MEMO_LIMIT) stemMemo.clear();
  stemMemo.set(word, out);
  return out;
}

const SEP = 0;
const LOWER = 1;
const UP = 2;
const NUM = 3;

/** Character class of the UTF-16 unit at `i`: separator, lower (or other letter), upper, digit. */
function classAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 95) return SEP; // _
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UP;
  if (c >= 48 && c <= 57) return NUM;
  if (c < 128) return SEP;
  const ch = s[i] as string;
  if (UPPER.test(ch)) return UP;
  return DIGIT.test(ch) ? NUM : LOWER;
}

/** [start, end) of the parts of one segment, relative to it. */
export function identifierParts(s: string): Array<[number, number]> {
  const parts: Array<[number, number]> = [];
  let start = -1;
  let prev = SEP;
  for (let i = 0; i < s.length; i++) {
    const cur = classAt(s, i);
    if (cur === SEP) {
      if (start >= 0) parts.push([start, i]);
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (
      (prev === LOWER && cur === UP) ||
      (prev === NUM) !== (cur === NUM) ||
      (prev === UP && cur === UP && i + 1 < s.length && classAt(s, i + 1) === LOWER)
    ) {
      parts.push([start, i]);
      start = i;
    }
    prev = cur;
  }
  if (start >= 0) parts.push([start, s.length]);
  return parts;
}

/** Pushes the terms of one segment at `base`: its parts, and the whole when it has several. */
function pushSegment(out: Token[], segment: string, base: number): void {
  const end = base + segment.length;
  if (segment.length > MAX_SPLIT) {
    const word = fold(segment);
    out.push({ start: base, end, word, term: word });
    return;
  }
  const parts = identifierParts(segment);
  if (parts.length === 0) return; // underscores only
  if (parts.length === 1) {
    const [s, e] = parts[0] as [number, number];
    const word = fold(segment.slice(s, e));
    out.push({ start: base + s, end: base + e, word, term: stem(word) });
    return;
  }
  const words = parts.map(([s, e]) => fold(segment.slice(s, e)));
  const whole = words.join('');
  out.push({ start: base, end, word: whole, term: stem(whole) });
  parts.forEach(([s, e], i) => {
    const word = words[i] as string;
    // A lone digit split off an identifier (utf8, md5, int2str) says nothing on its own.
    if (word.length === 1 && DIGIT.test(word)) return;
    out.push({ start: base + s, end: base + e, word, term: stem(word) });
  });
}

/** The terms of `text` in order (a compound's whole term first, then its segments' terms). */
function tokenizeCode(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(COMPOUND)) {
    const raw = m[0];
    const at = m.index;
    if (!CONNECTOR.test(raw)) {
      pushSegment(out, raw, at);
      continue;
    }
    const segments = [...raw.matchAll(SEGMENT)];
    if (segments.length > 1 && raw.length <= MAX_WHOLE) {
      const word = fold(raw);
      out.push({ start: at, end: at + raw.length, word, term: word });
    }
    for (const s of segments) pushSegment(out, s[0], at + s.index);
  }
  return out;
}

/** Choices of the query side. */
export interface CodeTokenizerOptions {
  /** Folded words a query drops unless nothing else remains (default CODE_QUERY_STOPWORDS). */
  stopwords?: ReadonlySet<string>;
  /**
   * Groups of equivalent words; a query term from a group also searches the others. Default
   * none: CODE_SYNONYMS did not raise MRR on the tuning half of CoSQA (docs/benchmarks.md).
   */
  synonyms?: readonly (readonly string[])[];
}

/**
 * A code tokenizer. Documents: every identifier's parts (stemmed) and, for identifiers and
 * compounds of several parts, the whole: an identifier's parts joined and stemmed as one word
 * (`file_name`, `fileName` and `filename` all index `filenam`), a compound folded with its
 * separators (`os.path.isfile`). Queries: the same terms, stopwords
 * dropped unless nothing else remains, then each term's synonyms (if any); at most 32 terms.
 */
export function createCodeTokenizer(options: CodeTokenizerOptions = {}): Tokenizer {
  const stopwords = options.stopwords ?? CODE_QUERY_STOPWORDS;
  const groups = synonymGroups(options.synonyms ?? [], stem);
  return {
    name: 'code',
    tokenize: tokenizeCode,
    queryTerms(text: string): string[] {
      const tokens = tokenizeCode(text.slice(0, MAX_QUERY_CHARS));
      const content = tokens.filter((t) => !stopwords.has(t.word));
      const terms = new Set((content.length > 0 ? content : tokens).map((t) => t.term));
      for (const t of [...terms]) for (const other of groups.get(t) ?? []) terms.add(other);
      return [...terms].slice(0, MAX_QUERY_TERMS);
    },
  };
}

/** The code tokenizer with the default settings (`name: 'code'`): what the code corpus uses. */
export const codeTokenizer: Tokenizer = createCodeTokenizer();
