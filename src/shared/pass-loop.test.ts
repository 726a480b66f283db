// passLoop: one run at a time, a wake during a run asks for exactly one more pass, a failure is
// remembered until a run succeeds, and stopping ends the run after the current pass.
import { describe, expect, it } from 'vitest';

import { passLoop } from './pass-loop.js';

/** A pass that waits until released, counting its calls. */
function gatedPasses(results: (number | Error)[]) {
  let calls = 0;
  let release: (() => void) | undefined;
  const pass = async (): Promise<number> => {
    const r = results[calls] ?? 0;
    calls += 1;
    await new Promise<void>((resolve) => (release = resolve));
    if (r instanceof Error) throw r;
    return r;
  };
  const releaseNext = async (): Promise<void> => {
    while (release === undefined) await new Promise((r) => setImmediate(r));
    const go = release;
    release = undefined;
    go();
  };
  return { pass, releaseNext, calls: () => calls };
}

describe('passLoop', () => {
  it('joins calls during a run and runs one more pass for them, whatever their number', async () => {
    const g = gatedPasses([2, 3, 5]);
    const loop = passLoop({ pass: g.pass, stopped: () => false, failed: 'x' });
    const first = loop.run();
    const second = loop.run();
    const third = loop.run();
    expect(second).toBe(first);
    expect(third).toBe(first);
    await g.releaseNext();
    await g.releaseNext();
    expect(await first).toBe(5);
    expect(g.calls()).toBe(2);
    expect(loop.current()).toBeUndefined();
  });

  it('remembers a failure until a run succeeds, and reports it', async () => {
    const seen: unknown[] = [];
    const boom = new Error('boom');
    const g = gatedPasses([boom, 4]);
    const loop = passLoop({
      pass: g.pass,
      stopped: () => false,
      failed: 'x',
      onError: (e) => seen.push(e),
    });
    const failed = loop.run();
    await g.releaseNext();
    expect(await failed).toBe(0);
    expect(loop.failure()).toBe(boom);
    expect(seen).toEqual([boom]);
    const next = loop.run();
    await g.releaseNext();
    expect(await next).toBe(4);
    expect(loop.failure()).toBeUndefined();
  });

  it('does not run the asked-for pass once stopped', async () => {
    let stopped = false;
    const g = gatedPasses([1, 1]);
    const loop = passLoop({ pass: g.pass, stopped: () => stopped, failed: 'x' });
    const run = loop.run();
    void loop.run();
    stopped = true;
    await g.releaseNext();
    expect(await run).toBe(1);
    expect(g.calls()).toBe(1);
  });
});
