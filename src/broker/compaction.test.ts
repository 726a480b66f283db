// Compaction keeps output within the byte budget, never splits a character, and says so.
import { describe, expect, it } from 'vitest';

import { compact, TRUNCATION_MARKER, utf8Prefix } from './compaction.js';

describe('compact', () => {
  it('leaves output within the budget untouched', () => {
    expect(compact('{"ok":true}', 100)).toEqual({ text: '{"ok":true}', compacted: null });
  });

  it('cuts to the budget with a visible marker', () => {
    const out = compact('x'.repeat(5000), 1000);
    expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(1000);
    expect(out.text).toContain(TRUNCATION_MARKER);
    expect(out.text).toMatch(/showing \d+ of 5000 bytes\]$/);
    expect(out.compacted).toMatchObject({ originalBytes: 5000 });
  });

  it('never splits a multi-byte character', () => {
    expect(utf8Prefix('€€€', 4)).toBe('€');
    const out = compact('😀'.repeat(1000), 500);
    expect(out.text).not.toContain('\uFFFD');
    expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(500);
  });
});
