// The clone index on synthetic token streams (no grammar): every planted copy of at least
// minTokens tokens is found whatever its offset (the winnowing guarantee), with its exact
// extent; shorter ones, overlapping self-repeats and cross-file-only mode behave as documented.
import { describe, expect, it } from 'vitest';

import { createRng } from '../../../test/rng.js';
import { createCloneIndex, type TokenStream } from './clones.js';

/** One token per row, ids from `ids`. */
const stream = (ids: readonly number[]): TokenStream => ({
  ids: Int32Array.from(ids),
  rows: Int32Array.from(ids.map((_, i) => i)),
});

/** `n` random ids in [1000, 1000 + range), never equal to the planted ones (1..999). */
function noise(rng: () => number, n: number, range = 50_000): number[] {
  return Array.from({ length: n }, () => 1000 + Math.floor(rng() * range));
}

describe('createCloneIndex', () => {
  it('finds every planted copy of minTokens or more, at any offset, with its extent', () => {
    const rng = createRng(12);
    for (let trial = 0; trial < 200; trial += 1) {
      const length = 50 + Math.floor(rng() * 60);
      const block = Array.from({ length }, (_, i) => 1 + ((i * 7 + trial) % 999));
      const [pa, pb] = [Math.floor(rng() * 300), Math.floor(rng() * 300)];
      const a = [...noise(rng, pa), ...block, ...noise(rng, 40)];
      const b = [...noise(rng, pb), ...block, ...noise(rng, 40)];
      const index = createCloneIndex({ minTokens: 50, minLines: 1, withinFile: false });
      expect(index.add(stream(a))).toEqual([]);
      expect(index.add(stream(b))).toEqual([
        {
          original: { file: 0, start: pa, end: pa + length },
          copy: { file: 1, start: pb, end: pb + length },
        },
      ]);
    }
  });

  it('does not report a repeat shorter than minTokens or fewer lines than minLines', () => {
    const rng = createRng(3);
    const block = Array.from({ length: 49 }, (_, i) => i + 1);
    const index = createCloneIndex({ minTokens: 50, minLines: 1, withinFile: true });
    expect(index.add(stream([...block, ...noise(rng, 30), ...block]))).toEqual([]);
    const lines = createCloneIndex({ minTokens: 50, minLines: 6, withinFile: true });
    const flat = Array.from({ length: 60 }, (_, i) => i + 1);
    const oneRow: TokenStream = {
      ids: Int32Array.from([...flat, 5000, ...flat]),
      rows: new Int32Array(121),
    };
    expect(lines.add(oneRow)).toEqual([]);
  });

  it('a copy never overlaps its original (a long run of one token)', () => {
    const index = createCloneIndex({ minTokens: 10, minLines: 1, withinFile: true });
    const clones = index.add(stream(Array.from({ length: 100 }, () => 7)));
    for (const c of clones) expect(c.original.end).toBeLessThanOrEqual(c.copy.start);
    expect(clones.length).toBeGreaterThan(0);
  });

  it('within-file copies are skipped in cross-file mode', () => {
    const rng = createRng(5);
    const block = Array.from({ length: 60 }, (_, i) => i + 1);
    const index = createCloneIndex({ minTokens: 50, minLines: 1, withinFile: false });
    expect(index.add(stream([...block, ...noise(rng, 20), ...block]))).toEqual([]);
  });
});
