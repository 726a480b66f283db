// The memory index's own tokenizer, shaped like FTS5's `porter unicode61`: runs of letters,
// digits and marks, case and diacritics folded, Porter-stemmed. Documents and queries go
// through the same functions, so a query term and an indexed term always agree.
import { stemmer } from 'stemmer';

import { STOPWORDS } from './fts-query.js';

const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const MAX_QUERY_TERMS = 32;

/** One word of a text: where it is and the term it indexes as. */
export interface Token {
  start: number;
  end: number;
  /** Case- and diacritic-folded, before stemming. */
  word: string;
  term: string;
}

const ASCII = /^[A-Za-z0-9]*$/;

/** Lower case without diacritics (ASCII words skip the Unicode decomposition). */
const fold = (raw: string): string =>
  ASCII.test(raw) ? raw.toLowerCase() : raw.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');

/** Stems ASCII words the way FTS5's porter tokenizer does; other words pass through. */
const stem = (word: string): string =>
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

/** Term → occurrences in `text`, and the text's length in tokens. */
export function termCounts(text: string): { counts: Map<string, number>; length: number } {
  const tokens = tokenize(text);
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t.term, (counts.get(t.term) ?? 0) + 1);
  return { counts, length: tokens.length };
}

/** The distinct terms a query searches for: stopwords dropped unless nothing else remains. */
export function queryStems(text: string): string[] {
  const tokens = tokenize(text.slice(0, 16_384));
  const content = tokens.filter((t) => !STOPWORDS.has(t.word));
  const chosen = content.length > 0 ? content : tokens;
  return [...new Set(chosen.map((t) => t.term))].slice(0, MAX_QUERY_TERMS);
}

const SNIPPET_TOKENS = 24;

/** Start of the 24-word window holding the most distinct query terms (sliding, O(words)). */
function bestWindow(tokens: readonly Token[], terms: ReadonlySet<string>): number {
  const inWindow = new Map<string, number>();
  const step = (t: Token | undefined, by: number): void => {
    if (t === undefined || !terms.has(t.term)) return;
    const n = (inWindow.get(t.term) ?? 0) + by;
    if (n === 0) inWindow.delete(t.term);
    else inWindow.set(t.term, n);
  };
  let best = 0;
  let bestHits = -1;
  for (let i = 0; i < tokens.length; i++) {
    step(tokens[i], 1);
    step(tokens[i - SNIPPET_TOKENS], -1);
    const start = Math.max(0, i - SNIPPET_TOKENS + 1);
    if (inWindow.size > bestHits) [best, bestHits] = [start, inWindow.size];
    if (bestHits === terms.size) break;
  }
  return best;
}

/**
 * An FTS5-style snippet of `text`: the window of up to 24 words holding the most distinct
 * query terms (earliest on ties), matches wrapped in «», '…' where text was cut.
 */
export function snippet(text: string, terms: ReadonlySet<string>): string {
  const tokens = tokenize(text);
  if (tokens.length === 0) return text.slice(0, 240);
  const best = bestWindow(tokens, terms);
  const window = tokens.slice(best, best + SNIPPET_TOKENS);
  const first = window[0] as Token;
  const last = window[window.length - 1] as Token;
  let out = best > 0 ? '…' : '';
  let at = best > 0 ? first.start : 0;
  for (const t of window) {
    if (!terms.has(t.term)) continue;
    out += `${text.slice(at, t.start)}«${text.slice(t.start, t.end)}»`;
    at = t.end;
  }
  out += text.slice(at, last.end);
  if (best + SNIPPET_TOKENS < tokens.length) out += '…';
  else out += text.slice(last.end);
  return out;
}
