// Unit tests of the relevance cut-off: full-text matches are judged by the fused score, vector-
// only hits by their cosine, both relative to the best of the result; full-text results and
// results without hits pass unchanged; nothing is reordered or dropped.
import { describe, expect, it } from 'vitest';

import { applyCutoff, DEFAULT_CUTOFF } from './cutoff.js';
import type { SearchHit, SearchResult } from './model.js';

function hit(id: string, score: number, fts: number | null, vector: number | null): SearchHit {
  const base = {
    kind: 'fact' as const,
    title: id,
    snippet: '',
    tags: [],
    teamId: null,
    agentId: null,
  };
  return { ...base, id, score, scoreBasis: 'rrf', ranks: { fts, vector }, createdAt: '' };
}

describe('applyCutoff', () => {
  it('marks weak full-text matches by fused score and vector-only ones by cosine', () => {
    const result: SearchResult = {
      mode: 'hybrid',
      results: [
        hit('a', 0.2, 1, 2), // best
        hit('b', 0.06, 6, null), // 30% of the best fused score: kept
        hit('c', 0.04, 10, null), // 20%: weak
        hit('d', 0.041, null, 1), // cosine 0.6 = best: kept
        hit('e', 0.036, null, 3), // cosine 0.47 < 0.8 × 0.6: weak
      ],
    };
    const cosines = new Map([
      ['d', 0.6],
      ['a', 0.5],
      ['e', 0.47],
    ]);
    const out = applyCutoff(result, cosines, DEFAULT_CUTOFF);
    expect(out.results.map((h) => [h.id, h.weak, h.cosine])).toEqual([
      ['a', false, 0.5],
      ['b', false, null],
      ['c', true, null],
      ['d', false, 0.6],
      ['e', true, 0.47],
    ]);
    expect(out.cutoff).toEqual({ ...DEFAULT_CUTOFF, hidden: 2 });
    expect(result.results[0]?.weak).toBeUndefined(); // the input is not changed
  });

  it('leaves full-text and empty results as they are', () => {
    const fts: SearchResult = {
      mode: 'fts',
      results: [{ ...hit('a', 3, 1, null), scoreBasis: 'fts-bm25' }],
    };
    expect(applyCutoff(fts, new Map(), DEFAULT_CUTOFF)).toBe(fts);
    const empty: SearchResult = { mode: 'hybrid', results: [] };
    expect(applyCutoff(empty, new Map(), DEFAULT_CUTOFF)).toBe(empty);
  });
});
