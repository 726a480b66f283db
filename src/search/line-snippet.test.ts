// Line snippets: the window with the most distinct query terms, centred on its matches, bounded
// in lines and characters, the opening lines when nothing matches.
import { describe, expect, it } from 'vitest';

import { codeTokenizer } from './code-tokenizer.js';
import { lineSnippet } from './line-snippet.js';

const terms = (q: string): Set<string> => new Set(codeTokenizer.queryTerms(q));
const numbered = (n: number, at: Record<number, string> = {}): string =>
  Array.from({ length: n }, (_, i) => at[i] ?? `line ${i} filler`).join('\n');

describe('lineSnippet', () => {
  it('shows the lines around the best match, centred, and lists the matching lines', () => {
    const text = numbered(40, { 20: 'const user = loadUserProfile(id);', 22: 'return user;' });
    const s = lineSnippet(text, terms('load user profile'), codeTokenizer, { maxLines: 5 });
    expect(s.first).toBe(19);
    expect(s.lines).toHaveLength(5);
    expect(s.lines[1]).toContain('loadUserProfile');
    expect(s.matches).toEqual([20, 22]);
  });

  it('prefers the window holding more distinct terms over an earlier one', () => {
    const text = numbered(60, { 2: 'cache hit', 40: 'cache eviction policy', 41: 'evict oldest' });
    const s = lineSnippet(text, terms('cache eviction'), codeTokenizer, { maxLines: 4 });
    expect(s.matches).toContain(40);
    expect(s.matches).not.toContain(2);
  });

  it('falls back to the opening lines when no term matches, and keeps short texts whole', () => {
    const s = lineSnippet(numbered(30), terms('nothing here'), codeTokenizer, { maxLines: 3 });
    expect(s).toEqual({
      first: 0,
      lines: ['line 0 filler', 'line 1 filler', 'line 2 filler'],
      matches: [],
    });
    const short = lineSnippet('def f():\n    return 1', terms('return'), codeTokenizer);
    expect(short).toEqual({ first: 0, lines: ['def f():', '    return 1'], matches: [1] });
  });

  it('cuts long lines and stays inside the text at its end', () => {
    const text = numbered(10, { 9: `x = "${'a'.repeat(500)}" # needle` });
    const s = lineSnippet(text, terms('needle'), codeTokenizer, { maxLines: 4, maxLineChars: 50 });
    expect(s.first).toBe(6);
    expect(s.lines.at(-1)).toHaveLength(50);
    expect(s.lines.at(-1)?.endsWith('…')).toBe(true);
    expect(s.matches).toEqual([9]);
  });

  it('does not look past maxScanChars', () => {
    const text = `${'filler\n'.repeat(100)}needle`;
    const s = lineSnippet(text, terms('needle'), codeTokenizer, { maxScanChars: 100 });
    expect(s.first).toBe(0);
    expect(s.matches).toEqual([]);
  });
});
