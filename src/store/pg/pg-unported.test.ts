// The stand-ins for search operations not yet on PostgreSQL: ported operations answer, the rest
// reject naming themselves, and the object is never mistaken for a promise.
import { describe, expect, it } from 'vitest';

import { partlyPorted, StoreUnsupportedError, unported } from './pg-unported.js';

interface Index {
  nearest(n: number): Promise<number>;
  fullText(q: string): Promise<string[]>;
}

describe('partlyPorted', () => {
  it('runs the ported operations and refuses the others by name', async () => {
    const ix = partlyPorted<Index>('memory search', { nearest: (n) => Promise.resolve(n * 2) });
    expect(await ix.nearest(21)).toBe(42);
    await expect(ix.fullText('x')).rejects.toThrow(
      'memory search.fullText is not available on the PostgreSQL backend yet',
    );
    await expect(ix.fullText('x')).rejects.toBeInstanceOf(StoreUnsupportedError);
    expect('then' in ix && (ix as { then?: unknown }).then).toBeFalsy();
    await expect(Promise.resolve(ix)).resolves.toBe(ix);
  });

  it('unported refuses everything', async () => {
    await expect(unported<Index>('graph search').nearest(1)).rejects.toThrow(
      'graph search.nearest is not available',
    );
  });
});
