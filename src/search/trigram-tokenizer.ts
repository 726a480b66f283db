// The trigram tokenizer: every run of three code points of a text, lower-cased exactly as
// JavaScript's toLowerCase does, so a case-insensitive substring of three code points or more
// always shares all its trigrams with the text it occurs in (candidates for an exact check,
// never the answer itself). Shorter queries have no trigram: callers fall back (see graph).
import type { Token, Tokenizer } from './tokenizer.js';

/** Code points a query needs for trigram candidates; shorter queries have none. */
export const TRIGRAM = 3;

/** In `u` mode a surrogate pair is one code point, so this matches lone surrogates only. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The trigrams of `text` lower-cased, in order, with UTF-16 offsets into the lower-cased text. */
function trigramTokens(text: string): Token[] {
  const points = Array.from(text.toLowerCase());
  const out: Token[] = [];
  let start = 0;
  for (let i = 0; i + TRIGRAM <= points.length; i++) {
    const term = `${points[i] ?? ''}${points[i + 1] ?? ''}${points[i + 2] ?? ''}`;
    out.push({ start, end: start + term.length, word: term, term });
    start += (points[i] ?? '').length;
  }
  return out;
}

/**
 * Whether a query's trigrams are a sound filter for it: three code points or more and no lone
 * surrogate (the database would store one as U+FFFD, so its trigram would never be found).
 */
export function trigramSearchable(query: string): boolean {
  return !LONE_SURROGATE.test(query) && Array.from(query).length >= TRIGRAM;
}

export const trigramTokenizer: Tokenizer = {
  name: 'trigram',
  tokenize: trigramTokens,
  queryTerms: (text) => [...new Set(trigramTokens(text).map((t) => t.term))],
};
