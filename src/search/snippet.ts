// FTS5-style snippets: the window of words holding the most distinct query terms, matches
// marked. Works with any tokenizer (overlapping tokens, as the code tokenizer makes, are marked
// once, by the first token that starts there).
import { proseTokenizer } from './prose.js';
import type { Token, Tokenizer } from './tokenizer.js';

const SNIPPET_TOKENS = 24;

/** Start of the 24-token window holding the most distinct query terms (sliding, O(tokens)). */
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
 * An FTS5-style snippet of `text`: the window of up to 24 tokens holding the most distinct
 * query terms (earliest on ties), matches wrapped in «», '…' where text was cut.
 */
export function snippet(
  text: string,
  terms: ReadonlySet<string>,
  tokenizer: Tokenizer = proseTokenizer,
): string {
  const tokens = tokenizer.tokenize(text);
  if (tokens.length === 0) return text.slice(0, 240);
  const best = bestWindow(tokens, terms);
  const window = tokens.slice(best, best + SNIPPET_TOKENS);
  const first = window[0] as Token;
  const last = window[window.length - 1] as Token;
  let out = best > 0 ? '…' : '';
  let at = best > 0 ? first.start : 0;
  let end = first.end;
  for (const t of window) {
    end = Math.max(end, t.end);
    if (!terms.has(t.term) || t.start < at) continue;
    out += `${text.slice(at, t.start)}«${text.slice(t.start, t.end)}»`;
    at = t.end;
  }
  out += text.slice(at, Math.max(at, last.end, end));
  if (best + SNIPPET_TOKENS < tokens.length) out += '…';
  else out += text.slice(Math.max(at, last.end, end));
  return out;
}
