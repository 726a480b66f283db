// Turns user text into a safe FTS5 query: words only, each quoted as a string (so `"`, `*`,
// NEAR, `-`, `:` and parentheses are text, never syntax), ORed so BM25 ranks partial matches.

import { STOPWORDS } from '../search/index.js';

const MAX_TERMS = 32;

/** The distinct lower-cased words of `text`, stopwords dropped unless nothing else remains. */
export function queryTerms(text: string): string[] {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 256))];
  const content = words.filter((w) => !STOPWORDS.has(w));
  return (content.length > 0 ? content : words).slice(0, MAX_TERMS);
}

/** An FTS5 MATCH expression ORing the quoted terms, or null when the text has no words. */
export function toFtsQuery(text: string): string | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}
