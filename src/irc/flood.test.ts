// Unit tests of the token bucket behind per-connection flood control.
import { describe, expect, it } from 'vitest';

import { createTokenBucket } from './flood.js';

describe('createTokenBucket', () => {
  it('allows the burst, then one token per 1/rate seconds', () => {
    let t = 0;
    const bucket = createTokenBucket({ burst: 3, perSecond: 10 }, () => t);
    expect([bucket.tryTake(), bucket.tryTake(), bucket.tryTake(), bucket.tryTake()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(bucket.waitMs()).toBe(100);
    t += 50;
    expect(bucket.tryTake()).toBe(false);
    t += 50;
    expect(bucket.tryTake()).toBe(true);
    t += 10_000;
    expect(bucket.waitMs()).toBe(0);
    for (let i = 0; i < 3; i++) expect(bucket.tryTake()).toBe(true);
    expect(bucket.tryTake()).toBe(false); // refills only up to the burst
  });
});
