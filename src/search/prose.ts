// The prose tokenizer, shaped like FTS5's `porter unicode61`: runs of letters, digits and
// marks, case and diacritics folded, Porter-stemmed; queries drop stopwords. Memory's corpus
// uses it, and its folding and stemming are the parts the code tokenizer reuses.
import { stemmer } from 'stemmer';

import { STOPWORDS } from './stopwords.js';
import type { Token, Tokenizer } from './tokenizer.js';

const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
/** Distinct terms a query searches for at most. */
export const MAX_QUERY_TERMS = 32;
/** Query text read at most (characters). */
export const MAX_QUERY_CHARS = 16_384;

const ASCII = /^[A-Za-z0-9]*$/;

/** Lower case without diacritics (ASCII words skip the Unicode decomposition). */
export const fold = (raw: string): string =>
  ASCII.test(raw) ? raw.toLowerCase() : raw.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');

/** Stems ASCII words the way FTS5's porter tokenizer does; other words pass through. */
export const stem = (word: string): string =>
  word.length > 2 && word.length <= 64 && /^[a-z]+$/.test(word) ? stemmer(word) : word;

/** The words of `text` in order, with offsets (for snippets). */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = fold(m[0]);
    if (word === '') continue;
    out.push({ start: m.index, end: m.index + m[0].length, word, term: stem(word) });
  }
  return out;
}

/**
 * The distinct terms of query tokens, in order: stopwords dropped unless nothing else remains,
 * at most MAX_QUERY_TERMS.
 */
export function distinctQueryTerms(tokens: readonly Token[]): string[] {
  const content = tokens.filter((t) => !STOPWORDS.has(t.word));
  const chosen = content.length > 0 ? content : tokens;
  return [...new Set(chosen.map((t) => t.term))].slice(0, MAX_QUERY_TERMS);
}

/** The distinct terms a prose query searches for: stopwords dropped unless nothing else remains. */
export function queryTerms(text: string): string[] {
  return distinctQueryTerms(tokenize(text.slice(0, MAX_QUERY_CHARS)));
}

export const proseTokenizer: Tokenizer = { name: 'prose', tokenize, queryTerms };
