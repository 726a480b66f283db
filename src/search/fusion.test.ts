// Fusion arithmetic: weighted RRF defaults and normalised-score (z-score) fusion, including
// candidates one channel did not score.
import { describe, expect, it } from 'vitest';

import { fuseRrf, fuseScores, fusionDepth, RRF_DEFAULTS } from './fusion.js';

describe('fuseRrf', () => {
  it('weights the vector channel below full text by default', () => {
    // Row 3 is second in both lists; row 1 first in full text only; row 2 first in vector only.
    const fused = fuseRrf([1, 3], [2, 3]);
    const { k, vector } = RRF_DEFAULTS;
    expect(fused.map((f) => f.rowid)).toEqual([3, 1, 2]);
    expect(fused[0]).toMatchObject({
      ranks: { fts: 2, vector: 2 },
      score: expect.closeTo((1 + vector) / (k + 2), 10) as number,
    });
    expect(fused[1]?.score).toBeCloseTo(1 / (k + 1));
    expect(fused[2]).toMatchObject({ ranks: { fts: null, vector: 1 } });
    expect(fused[2]?.score).toBeCloseTo(vector / (k + 1));
  });

  it('takes k and weights from the options', () => {
    const fused = fuseRrf([1], [2], { k: 60, ftsWeight: 1, vectorWeight: 1 });
    expect(fused.map((f) => f.score)).toEqual([1 / 61, 1 / 61]);
    expect(fused.map((f) => f.rowid)).toEqual([1, 2]);
  });
});

describe('fuseScores', () => {
  const ranks = new Map([
    [1, { fts: 1, vector: 3 }],
    [2, { fts: 2, vector: 1 }],
    [3, { fts: null, vector: 2 }],
  ]);

  it('sums z-scored channel scores with the channel weights', () => {
    const fused = fuseScores(
      [
        { rowid: 1, bm25: 9, cosine: 0.1 },
        { rowid: 2, bm25: 3, cosine: 0.9 },
        { rowid: 3, bm25: null, cosine: 0.5 },
      ],
      ranks,
      { ftsWeight: 0.5, vectorWeight: 0.5 },
    );
    // z(bm25 [9, 3, 0]) = [1.336, -0.267, -1.069]; z(cosine [0.1, 0.9, 0.5]) = [-1.225, 1.225, 0].
    expect(fused.map((f) => f.rowid)).toEqual([2, 1, 3]);
    expect(fused.map((f) => f.score)).toEqual([
      expect.closeTo(0.479, 3),
      expect.closeTo(0.056, 3),
      expect.closeTo(-0.535, 3),
    ]);
    expect(fused[0]?.ranks).toEqual({ fts: 2, vector: 1 });
    expect(fused.reduce((a, f) => a + f.score, 0)).toBeCloseTo(0);
  });

  it('lets full text dominate with the default weights', () => {
    const fused = fuseScores(
      [
        { rowid: 1, bm25: 9, cosine: 0.1 },
        { rowid: 2, bm25: 3, cosine: 0.9 },
        { rowid: 3, bm25: null, cosine: 0.5 },
      ],
      ranks,
    );
    expect(fused.map((f) => f.rowid)).toEqual([1, 2, 3]);
    expect(fused[0]?.score).toBeGreaterThan(fused[1]?.score ?? Infinity);
  });

  it('gives an item without a vector the lowest cosine, not a penalty below it', () => {
    const fused = fuseScores(
      [
        { rowid: 1, bm25: 5, cosine: null },
        { rowid: 2, bm25: 5, cosine: 0.2 },
        { rowid: 3, bm25: 5, cosine: 0.8 },
      ],
      new Map(),
    );
    expect(fused.map((f) => f.rowid)).toEqual([3, 1, 2]);
    expect(fused[1]?.score).toBeCloseTo(fused[2]?.score ?? NaN);
    expect(fused[1]?.ranks).toEqual({ fts: null, vector: null });
  });

  it('orders by the other channel when one does not vary, and handles no candidates', () => {
    const fused = fuseScores(
      [
        { rowid: 1, bm25: null, cosine: 0.3 },
        { rowid: 2, bm25: null, cosine: 0.7 },
      ],
      new Map(),
    );
    expect(fused.map((f) => f.rowid)).toEqual([2, 1]);
    expect(fuseScores([], new Map())).toEqual([]);
  });
});

describe('fusionDepth', () => {
  it('takes at least 50 candidates per channel, or five pages', () => {
    expect(fusionDepth(10)).toBe(50);
    expect(fusionDepth(20)).toBe(100);
    expect(fusionDepth(10, { depth: 7 })).toBe(7);
  });
});
