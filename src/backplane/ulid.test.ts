import { describe, expect, it } from 'vitest';

import { createUlidFactory, derivedUlid, isUlid } from './ulid.js';

describe('ulid', () => {
  it('encodes the time first and stays strictly increasing within a millisecond', () => {
    const next = createUlidFactory();
    const ids = Array.from({ length: 1000 }, () => next(1_700_000_000_000));
    expect(ids.every(isUlid)).toBe(true);
    expect(new Set(ids.map((id) => id.slice(0, 10))).size).toBe(1);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts by time, never goes backwards when the clock does, and rejects bad times', () => {
    const next = createUlidFactory();
    const a = next(1000);
    const b = next(2000);
    const c = next(1500);
    expect(a < b && b < c).toBe(true);
    expect(next(0).slice(0, 10)).toBe(c.slice(0, 10));
    expect(createUlidFactory()(0).slice(0, 10)).toBe('0000000000');
    expect(() => next(-1)).toThrow(RangeError);
    expect(() => next(2 ** 48)).toThrow(RangeError);
  });

  it('derives a stable id from a time and a digest', () => {
    const digest = Buffer.alloc(32, 7);
    expect(derivedUlid(5, digest)).toBe(derivedUlid(5, digest));
    expect(isUlid(derivedUlid(5, digest))).toBe(true);
  });
});
