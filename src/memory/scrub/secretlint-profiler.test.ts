// Regression: secretlint's always-on profiler must not accumulate across scrubs (it made every
// save slower than the last in a long-lived server). Checks buffers, not timings.
import { performance } from 'node:perf_hooks';

import { secretLintProfiler } from '@secretlint/profiler';
import { describe, expect, it } from 'vitest';

import { createScrubber } from '../scrub.js';

const ownMarks = (): number =>
  performance.getEntriesByType('mark').filter((e) => e.name.startsWith('@core>')).length;
const profilerEntries = (): number =>
  (secretLintProfiler as unknown as { entries: unknown[] }).entries.length;
const idle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('secretlint profiler', () => {
  it('keeps no profile after sequential and concurrent scrubs', async () => {
    const scrubber = createScrubber();
    const token = `ghp_${'a1B2c3D4e5F6g7H8i9J0'}${'k1L2m3N4o5P6q7R8'}`;
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 20; i++) await scrubber.scrub(`note ${i} without secrets`);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => scrubber.scrub(`token ${i}: ${token}`)),
      );
      for (const r of results) expect(r.text).not.toContain(token);
      // Nothing is left behind once scrubs are idle.
      await idle();
      await idle();
      expect(ownMarks()).toBe(0);
      expect(profilerEntries()).toBe(0);
    }
  });

  it('overlapping scrubs still detect, and leave nothing behind', async () => {
    const scrubber = createScrubber();
    const long = `${'plain words here '.repeat(2000)}AKIA${'ABCDEFGHIJKLMNOP'}`;
    const pending = Promise.all([scrubber.scrub(long), scrubber.scrub('short one')]);
    await idle();
    const [a, b] = await pending;
    expect(a.findings.map((f) => f.kind)).toEqual(['aws-access-key']);
    expect(b.findings).toEqual([]);
    await idle();
    await idle();
    expect(ownMarks()).toBe(0);
  });
});
