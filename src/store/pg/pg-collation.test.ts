import { describe, expect, it } from 'vitest';

import { collationWarning } from './pg-collation.js';

describe('collationWarning', () => {
  it('is quiet for collations that order text byte by byte, as SQLite does', () => {
    for (const collate of ['C', 'POSIX', 'C.UTF-8', 'C.utf8'])
      expect(collationWarning({ collate, icuLocale: null })).toBeUndefined();
  });

  it('names a linguistic libc collation and how to get the SQLite order', () => {
    const w = collationWarning({ collate: 'en_US.UTF-8', icuLocale: null });
    expect(w).toMatch(/"en_US\.UTF-8"/);
    expect(w).toMatch(/createdb --locale=C --template=template0/);
  });

  it('names the ICU locale even when LC_COLLATE says C', () => {
    expect(collationWarning({ collate: 'C', icuLocale: 'en-US' })).toMatch(/"ICU en-US"/);
  });
});
