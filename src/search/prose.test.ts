// The prose tokenizer: FTS5 `porter unicode61`-shaped terms, query terms and snippets.
import { describe, expect, it } from 'vitest';

import { proseTokenizer, queryTerms, tokenize } from './prose.js';
import { snippet } from './snippet.js';
import { termCounts } from './tokenizer.js';

describe('tokenize', () => {
  it('folds case and diacritics, stems English words and splits on punctuation', () => {
    expect(tokenize('Café RUNNING runs, naïve_user-42').map((t) => t.term)).toEqual([
      'cafe',
      'run',
      'run',
      'naiv',
      'user',
      '42',
    ]);
    expect(termCounts(proseTokenizer, 'the cat and the hat').counts.get('the')).toBe(2);
    expect(termCounts(proseTokenizer, 'the cat and the hat').length).toBe(5);
  });

  it('drops stopwords from queries unless nothing else remains', () => {
    expect(queryTerms('What is the deploying cadence?')).toEqual(['deploi', 'cadenc']);
    expect(queryTerms('who is it')).toEqual(['who', 'is', 'it']);
    expect(queryTerms('"*" NEAR ( -:')).toEqual(['near']);
    expect(queryTerms('')).toEqual([]);
  });

  it('cuts a snippet around the densest window of query terms', () => {
    const filler = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const text = `${filler} the kafka lag alarm fired twice ${filler}`;
    const out = snippet(text, new Set(queryTerms('kafka alarm')));
    expect(out.startsWith('…')).toBe(true);
    expect(out.endsWith('…')).toBe(true);
    expect(out).toContain('«kafka» lag «alarm»');
    expect(out.split(' ').length).toBeLessThanOrEqual(26);
    expect(snippet('short text', new Set(['short']))).toBe('«short» text');
  });
});
