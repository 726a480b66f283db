// The tokenizer plug-in: the BM25 weighting and the snippets work with any tokenizer, and the
// two shipped ones keep the contract (offsets into the text, queries in the documents' terms).
import { describe, expect, it } from 'vitest';

import { weightedTerms } from './bm25.js';
import { codeTokenizer } from './code-tokenizer.js';
import { proseTokenizer } from './prose.js';
import { snippet } from './snippet.js';
import { termCounts, type Token, type Tokenizer } from './tokenizer.js';

/** A plug-in written for the test: whitespace-separated words, upper-cased terms. */
const shouting: Tokenizer = {
  name: 'shouting',
  tokenize(text) {
    return [...text.matchAll(/\S+/g)].map((m): Token => ({
      start: m.index,
      end: m.index + m[0].length,
      word: m[0],
      term: m[0].toUpperCase(),
    }));
  },
  queryTerms: (text) => [...new Set(text.split(/\s+/).filter(Boolean))].map((w) => w.toUpperCase()),
};

describe('tokenizer plug-ins', () => {
  it('weights terms per field with whatever tokenizer the corpus names', () => {
    const { weights, length } = weightedTerms(shouting, ['a b', 'b c c'], [2, 1]);
    expect(Object.fromEntries(weights)).toEqual({ A: 2, B: 3, C: 2 });
    expect(length).toBe(5);
    expect(termCounts(shouting, 'x x y').counts.get('X')).toBe(2);
    // The same text weighs differently under the code tokenizer (whole + parts, each stemmed).
    const code = weightedTerms(codeTokenizer, ['getUser', 'return user'], [3, 1]);
    expect(Object.fromEntries(code.weights)).toEqual({ getus: 3, get: 3, user: 4, return: 1 });
    expect(code.length).toBe(5);
  });

  it('snippets mark each span once when terms overlap', () => {
    const text = 'const user = getUserName(id)';
    expect(snippet(text, new Set(['user']), codeTokenizer)).toBe(
      'const «user» = get«User»Name(id)',
    );
    expect(snippet(text, new Set(['getusernam', 'user']), codeTokenizer)).toBe(
      'const «user» = «getUserName»(id)',
    );
    expect(snippet('Up UP up', new Set(['UP']), shouting)).toBe('«Up» «UP» «up»');
  });

  it('every shipped tokenizer gives offsets into the text and queries in document terms', () => {
    const text = 'Parsing the HTTPServer config: os.path.join(root, "Ünïcode") — done.';
    for (const tokenizer of [proseTokenizer, codeTokenizer]) {
      const tokens = tokenizer.tokenize(text);
      expect(tokens.length).toBeGreaterThan(5);
      for (const t of tokens) {
        expect(t.start).toBeGreaterThanOrEqual(0);
        expect(t.end).toBeLessThanOrEqual(text.length);
        expect(t.end).toBeGreaterThan(t.start);
      }
      const indexed = new Set(tokens.map((t) => t.term));
      for (const q of tokenizer.queryTerms(text)) expect(indexed.has(q), q).toBe(true);
    }
    expect(proseTokenizer.name).toBe('prose');
    expect(codeTokenizer.name).toBe('code');
  });
});
