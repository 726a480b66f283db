import { describe, expect, it } from 'vitest';

import { isoTime, isoTimes } from './wire-times.js';

describe('isoTimes', () => {
  it('turns epoch ms under time fields into ISO 8601 at any depth, and nothing else', () => {
    const ms = Date.UTC(2026, 4, 1, 12, 0, 0, 5);
    const input = {
      createdAt: ms,
      decidedAt: null,
      updatedAt: '2026-05-01T12:00:00.005Z',
      seq: ms,
      entries: [{ at: ms, detail: { expiresAt: ms, ms: 12 } }],
      args: { at: ms },
      payload: { createdAt: ms },
    };
    expect(isoTimes(input)).toEqual({
      createdAt: '2026-05-01T12:00:00.005Z',
      decidedAt: null,
      updatedAt: '2026-05-01T12:00:00.005Z',
      seq: ms,
      entries: [
        {
          at: '2026-05-01T12:00:00.005Z',
          detail: { expiresAt: '2026-05-01T12:00:00.005Z', ms: 12 },
        },
      ],
      args: { at: ms },
      payload: { createdAt: ms },
    });
    expect(input.createdAt).toBe(ms);
    expect(isoTime(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(isoTimes([1, 'x', null])).toEqual([1, 'x', null]);
    expect(isoTimes({ at: Number.NaN })).toEqual({ at: Number.NaN });
  });
});
