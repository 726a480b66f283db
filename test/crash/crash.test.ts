// Crash safety across processes: tasks, memory, teamchat and tools stdio servers and a
// `cairn serve` (REST approvals, memory over HTTP) write one SQLite file at once and are
// SIGKILLed mid-write, round after round, then all at once. Every write a client saw
// acknowledged must be in the file whole, nothing may be half-written, and SQLite's own
// checks must pass. The larger version with the figures is `npm run bench -- crash`.
// Checked to fail: with create_task writing its create event in a second transaction 30 ms
// after the task, it reported the orphaned tasks in 3 runs of 3.
import { afterEach, describe, expect, it } from 'vitest';

import { type CrashRun, runCrash } from './run.js';
import { verifyCrash } from './verify.js';

describe('SIGKILL mid-write', () => {
  let run: CrashRun | undefined;
  afterEach(() => {
    run?.dir.cleanup();
    run = undefined;
  });

  it('keeps every acknowledged write whole across 3 kill rounds of 5 processes', async () => {
    const seed = Date.now() % 1_000_000;
    const r = (run = await runCrash({
      rounds: 3,
      seed,
      killDelayMs: [50, 400],
      parents: 40,
      delegations: 8,
      gatedParallel: 2,
      extraKill: 0.25,
    }));
    const verdict = verifyCrash(r.db, r.ledger);
    const context = `seed ${seed}, figures ${JSON.stringify(verdict.figures)}\n${r.stderr.slice(-4000)}`;

    expect(verdict.problems, context).toEqual([]);
    expect(verdict.integrity).toBe('ok');
    expect(verdict.foreignKeyViolations).toBe(0);
    // Every kind of process died at least once mid-run, and then all of them together.
    for (const kind of Object.keys(r.killed) as Array<keyof typeof r.killed>)
      expect(r.killed[kind], kind).toBeGreaterThanOrEqual(2);
    // Each write path was exercised and acknowledged at least once, so the checks had teeth.
    for (const [kind, f] of Object.entries(verdict.figures)) {
      expect(f.acknowledged, `${kind} acknowledged (${context})`).toBeGreaterThan(0);
      expect(f.kept, kind).toBe(f.acknowledged);
    }
  }, 150_000);
});
