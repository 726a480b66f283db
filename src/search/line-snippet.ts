// Line snippets for code: the few whole lines of a text that hold the most distinct query terms,
// with context around them, each line and the whole bounded. Code keeps its own layout (no
// marks inside it); the lines that matched are listed instead. Pure: no I/O.
import type { Tokenizer } from './tokenizer.js';

export interface LineSnippetOptions {
  /** Lines shown at most (default 8). */
  maxLines?: number;
  /** Characters per line at most; longer lines end in `…` (default 160). */
  maxLineChars?: number;
  /** Characters of the text looked at (default 65,536); matches beyond are not seen. */
  maxScanChars?: number;
}

export interface LineSnippet {
  /** 0-based index in the text of the first line shown. */
  first: number;
  /** The lines shown, each cut at `maxLineChars`. */
  lines: string[];
  /** 0-based indexes in the text of the shown lines that hold a query term. */
  matches: number[];
}

const DEFAULTS = { maxLines: 8, maxLineChars: 160, maxScanChars: 65_536 } as const;

/** The index of each line's first character. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The line holding offset `at` (binary search over the starts). */
function lineOf(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Per line, the query terms it holds. */
function termsByLine(text: string, terms: ReadonlySet<string>, tokenizer: Tokenizer) {
  const starts = lineStarts(text);
  const byLine = new Map<number, Set<string>>();
  for (const t of tokenizer.tokenize(text)) {
    if (!terms.has(t.term)) continue;
    const line = lineOf(starts, t.start);
    const set = byLine.get(line) ?? new Set<string>();
    set.add(t.term);
    byLine.set(line, set);
  }
  return { count: starts.length, byLine };
}

/** Start of the `size`-line window with the most distinct terms (earliest on ties). */
function bestWindow(byLine: ReadonlyMap<number, Set<string>>, size: number): number {
  let best = 0;
  let bestScore = -1;
  for (const start of byLine.keys()) {
    const seen = new Set<string>();
    for (let l = start; l < start + size; l++) for (const t of byLine.get(l) ?? []) seen.add(t);
    if (seen.size > bestScore || (seen.size === bestScore && start < best)) {
      [best, bestScore] = [start, seen.size];
    }
  }
  return best;
}

const cut = (line: string, max: number): string =>
  line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1))}…`;

/**
 * The lines of `text` around its best run of query `terms` (tokenized by `tokenizer`, so they
 * are the query's terms from the same tokenizer): the `maxLines` window holding the most
 * distinct terms, re-centred on its matches; the opening lines when nothing matches.
 */
export function lineSnippet(
  text: string,
  terms: ReadonlySet<string>,
  tokenizer: Tokenizer,
  options: LineSnippetOptions = {},
): LineSnippet {
  const o = { ...DEFAULTS, ...options };
  const size = Math.max(1, Math.trunc(o.maxLines));
  const all = text.split('\n');
  const { byLine } = termsByLine(text.slice(0, o.maxScanChars), terms, tokenizer);
  let first = 0;
  if (byLine.size > 0) {
    const start = bestWindow(byLine, size);
    const inside = [...byLine.keys()].filter((l) => l >= start && l < start + size);
    const lo = Math.min(...inside);
    const hi = Math.max(...inside);
    const centred = lo - Math.floor((size - (hi - lo + 1)) / 2);
    first = Math.max(0, Math.min(centred, all.length - size));
  }
  const lines = all.slice(first, first + size).map((l) => cut(l, o.maxLineChars));
  const matches = [...byLine.keys()]
    .filter((l) => l >= first && l < first + lines.length)
    .sort((a, b) => a - b);
  return { first, lines, matches };
}
