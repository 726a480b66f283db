// The verification digest: independent of row order, blind to how each side spells the same
// value (BigInt or number, U+0000 or the U+FFFD PostgreSQL stores), and changed by any edit.
import { describe, expect, it } from 'vitest';

import { digestRows } from './migrate-verify.js';

describe('migrate-store verification digest', () => {
  const rows = [
    [1n, 'alpha', Buffer.from([0, 1, 2]), null, 0.25],
    [2n, 'beta', Buffer.from([]), 'x', 3],
  ];

  it('is the same in any row order and counts the rows', () => {
    const a = digestRows(rows);
    const b = digestRows([...rows].reverse());
    expect(a).toEqual(b);
    expect(a.rows).toBe(2);
    expect(a.digest).toMatch(/^[0-9a-f]{32}$/);
  });

  it('reads an integer the same as a BigInt or a number, and U+0000 as U+FFFD', () => {
    expect(digestRows([[3n, 'a\u0000b']])).toEqual(digestRows([[3, 'a\uFFFDb']]));
  });

  it('changes with any value, NULL against empty text, or a moved value', () => {
    const base = digestRows(rows).digest;
    expect(digestRows([rows[0] ?? [], [2n, 'beta', Buffer.from([]), 'y', 3]]).digest).not.toBe(
      base,
    );
    expect(digestRows([[null]]).digest).not.toBe(digestRows([['']]).digest);
    expect(digestRows([['a', 'b']]).digest).not.toBe(digestRows([['b', 'a']]).digest);
    expect(digestRows([[1.5]]).digest).not.toBe(digestRows([[1]]).digest);
  });
});
