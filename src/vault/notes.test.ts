// A-MEM note arithmetic: frontmatter tags, absorbing a newcomer within the bounds, the context's
// related titles (newest first, at most three), and a rewrite keeping them.
import { describe, expect, it } from 'vitest';

import {
  absorb,
  ABSORB_KEYWORDS,
  CONTEXT_RELATED,
  frontmatterTags,
  MAX_KEYWORDS,
  rewritten,
  sameNote,
} from './notes.js';

const note = (keywords: string[], tags: string[] = [], context = 'note "A" about x') => ({
  keywords,
  tags,
  context,
});

describe('A-MEM notes', () => {
  it('reads frontmatter tags from a list or a comma-separated string', () => {
    expect(frontmatterTags({ tags: ['a', ' b ', 'a', 3] })).toEqual(['a', 'b', '3']);
    expect(frontmatterTags({ tags: 'x, y,,' })).toEqual(['x', 'y']);
    expect(frontmatterTags({ tags: { no: 1 } })).toEqual([]);
    expect(frontmatterTags({})).toEqual([]);
  });

  it('absorbs at most ABSORB_KEYWORDS new keywords (by stem) and never past MAX_KEYWORDS', () => {
    const after = absorb(
      note(['queue', 'retry']),
      note(['retries', 'jitter', 'stampede', 'outage'], ['ops']),
      'B',
    );
    expect(after.keywords).toEqual(
      ['queue', 'retry', 'jitter', 'stampede'].slice(0, 2 + ABSORB_KEYWORDS),
    );
    expect(after.tags).toEqual(['ops']);
    const full = note(Array.from({ length: MAX_KEYWORDS }, (_, i) => `k${i}`));
    expect(absorb(full, note(['fresh']), 'B').keywords).toHaveLength(MAX_KEYWORDS);
  });

  it('names related titles newest first, at most CONTEXT_RELATED, and keeps them on a rewrite', () => {
    let n = note(['a']);
    for (const t of ['B', 'C', 'D', 'B']) n = absorb(n, note([]), t);
    expect(n.context).toBe('note "A" about x — related: "B"; "D"; "C"');
    expect(n.context.split('; ')).toHaveLength(CONTEXT_RELATED);
    const again = rewritten(n, note(['z'], [], 'note "A" about z'));
    expect(again.context).toBe('note "A" about z — related: "B"; "D"; "C"');
    expect(sameNote(n, absorb(n, note([]), 'B'))).toBe(true);
  });
});
