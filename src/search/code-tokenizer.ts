// A minimal code tokenizer (the eval helper's fuller one replaces it at merge): identifiers
// split into parts (camelCase, PascalCase, HTTPServer, snake_case), compounds (dotted.names,
// paths, kebab-case, a::b) into segments, each whole identifier and compound kept as a term
// too; case folded, parts stemmed like prose. Pure: no I/O.
import { distinctQueryTerms, fold, MAX_QUERY_CHARS, stem } from './prose.js';
import type { Token, Tokenizer } from './tokenizer.js';

/** Segments joined by `.`, `::`, `/` or `-` with no space around. */
const COMPOUND = /[\p{L}\p{N}\p{M}_$]+(?:(?:\.|::|\/|-)[\p{L}\p{N}\p{M}_$]+)*/gu;
const SEGMENT = /[\p{L}\p{N}\p{M}_$]+/gu;
/** The parts of a segment: an acronym before a capitalised word, a (capitalised) word, digits. */
const PART =
  /\p{Lu}+(?=\p{Lu}[\p{Ll}\p{N}])|\p{Lu}?[\p{Ll}\p{N}\p{M}]+|\p{Lu}+|[\p{Lo}\p{Lm}\p{Lt}\p{M}]+/gu;
/** Longer compounds are not kept whole (generated paths, long attribute chains). */
const MAX_WHOLE = 96;

/** Pushes one segment's terms at `base`: the whole (when it has several parts), then each part. */
function pushSegment(out: Token[], segment: string, base: number): void {
  const parts = [...segment.matchAll(PART)];
  if (parts.length === 0) return; // underscores only
  const end = base + segment.length;
  if (parts.length > 1) {
    const whole = parts.map((p) => fold(p[0])).join('');
    out.push({ start: base, end, word: whole, term: whole });
  }
  for (const p of parts) {
    const word = fold(p[0]);
    out.push({ start: base + p.index, end: base + p.index + p[0].length, word, term: stem(word) });
  }
}

/** The terms of `text` in order: a compound's whole first, then its segments' terms. */
function tokenizeCode(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(COMPOUND)) {
    const segments = [...m[0].matchAll(SEGMENT)];
    if (segments.length > 1 && m[0].length <= MAX_WHOLE) {
      const word = fold(m[0]);
      out.push({ start: m.index, end: m.index + m[0].length, word, term: word });
    }
    for (const s of segments) pushSegment(out, s[0], m.index + s.index);
  }
  return out;
}

/** The code tokenizer: queries go through the same rules, stopwords dropped (as prose). */
export const codeTokenizer: Tokenizer = {
  name: 'code',
  tokenize: tokenizeCode,
  queryTerms: (text) => distinctQueryTerms(tokenizeCode(text.slice(0, MAX_QUERY_CHARS))),
};
