// The trigram tokenizer and the conjunctive filter: every case-insensitive substring of three
// code points or more shares all its trigrams with its text, so candidates never miss a match.
import { describe, expect, it } from 'vitest';

import { packTerms } from './bm25.js';
import { matchAll, PartitionIndex } from './partition-index.js';
import { trigramSearchable, trigramTokenizer } from './trigram-tokenizer.js';

const terms = (text: string): string[] => trigramTokenizer.tokenize(text).map((t) => t.term);

describe('trigram tokenizer', () => {
  it('lower-cases as toLowerCase does and walks code points', () => {
    expect(terms('AbCd')).toEqual(['abc', 'bcd']);
    expect(terms('ab')).toEqual([]);
    expect(terms('a😀bc')).toEqual(['a😀b', '😀bc']);
    expect(trigramTokenizer.queryTerms('aaaa')).toEqual(['aaa']);
  });

  it('finds every substring of 3+ code points among the text trigrams', () => {
    const text = 'Ünïcode Straße — naïve café 😀 x';
    const all = new Set(terms(text));
    const points = Array.from(text);
    for (let i = 0; i < points.length; i++)
      for (let j = i + 3; j <= points.length; j++) {
        const q = points.slice(i, j).join('').toUpperCase();
        if (!text.toLowerCase().includes(q.toLowerCase())) continue;
        for (const t of trigramTokenizer.queryTerms(q)) expect(all.has(t), `${q}: ${t}`).toBe(true);
      }
  });

  it('is no filter for short or malformed queries', () => {
    expect(trigramSearchable('ab')).toBe(false);
    expect(trigramSearchable('a😀')).toBe(false);
    expect(trigramSearchable('ab\uD800')).toBe(false);
    expect(trigramSearchable('abc')).toBe(true);
  });
});

describe('matchAll', () => {
  it('keeps live documents holding every term, loaded or added later', () => {
    const doc = (ids: number[]) =>
      packTerms(
        ids,
        ids.map(() => 1),
      );
    const index = PartitionIndex.load([
      { item: 10, terms: doc([1, 2, 3]) },
      { item: 11, terms: doc([1, 3]) },
      { item: 12, terms: doc([2, 3]) },
    ]);
    const slot = index.add(13, doc([1, 2]));
    expect(matchAll([index], [1, 2])).toEqual([10, 13]);
    index.kill(slot);
    expect(matchAll([index], [1, 2])).toEqual([10]);
    expect(matchAll([index], [3])).toEqual([10, 11, 12]);
    expect(matchAll([index], [])).toEqual([]);
    expect(matchAll([index], [9])).toEqual([]);
  });
});
