import { describe, expect, it } from 'vitest';

import { fuseLists } from './fuse-lists.js';

describe('fuseLists', () => {
  it('weights lists, records ranks per list and breaks ties by id', () => {
    const out = fuseLists(
      [
        { name: 'original', weight: 1, ids: [1, 2, 3] },
        { name: 'expanded', weight: 0.5, ids: [3, 2, 4] },
      ],
      1,
    );
    // 1: 1/2 = 0.5; 2: 1/3 + 0.5/3 = 0.5; 3: 1/4 + 0.5/2 = 0.5; 4: 0.5/4 = 0.125.
    expect(out.map((f) => f.id)).toEqual([1, 2, 3, 4]);
    expect(out[2]).toMatchObject({ id: 3, ranks: { original: 3, expanded: 1 } });
    expect(out[2]?.score).toBeCloseTo(0.5, 12);
    expect(out[3]?.ranks).toEqual({ expanded: 3 });
  });

  it('counts an id once per list and lets a zero-weight list only record ranks', () => {
    const out = fuseLists([
      { name: 'a', weight: 1, ids: [7, 7] },
      { name: 'b', weight: 0, ids: [8] },
    ]);
    expect(out).toEqual([
      { id: 7, score: 1 / 61, ranks: { a: 1 } },
      { id: 8, score: 0, ranks: { b: 1 } },
    ]);
  });
});
