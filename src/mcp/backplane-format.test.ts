import { describe, expect, it } from 'vitest';

import { oneLineBody } from './backplane-format.js';

describe('oneLineBody', () => {
  it('collapses line breaks, blanks control characters and cuts by code points', () => {
    expect(oneLineBody('  a \r\n\n  b\tc\u2028d\u0007 ')).toBe('a b c d');
    expect(oneLineBody('short', 5)).toBe('short');
    expect(oneLineBody('🙂'.repeat(6), 5)).toBe(
      `${'🙂'.repeat(5)}… (6 chars; full text in structuredContent.messages)`,
    );
    expect(oneLineBody('🙂'.repeat(4), 5)).toBe('🙂'.repeat(4));
  });

  it('stays linear on long whitespace runs (no regex backtracking)', () => {
    const body = `${' '.repeat(60_000)}x${'\n'.repeat(60_000)}y`;
    expect(oneLineBody(body)).toBe('x y');
  });
});
