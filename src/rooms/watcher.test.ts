import { afterEach, describe, expect, it } from 'vitest';

import { createRoomWatcher, type RoomWatcher } from './watcher.js';

describe('room watcher', () => {
  let watcher: RoomWatcher | undefined;
  afterEach(() => watcher?.close());

  it('wakes on notify, on a polled change, and times out otherwise', async () => {
    let top = 0;
    let polls = 0;
    const w = (watcher = createRoomWatcher({
      maxSeq: () => {
        polls++;
        return Promise.resolve(top);
      },
      intervalMs: 10,
    }));
    const quiet = createRoomWatcher({ maxSeq: () => Promise.resolve(0), intervalMs: 60_000 });
    const notified = quiet.wait('r', 0, 5000);
    await new Promise((r) => setTimeout(r, 5));
    const t0 = Date.now();
    quiet.notify('r', 1);
    expect(await notified).toBe(true);
    expect(Date.now() - t0).toBeLessThan(50);
    quiet.close();

    const polled = w.wait('r', 0, 5000);
    top = 2;
    expect(await polled).toBe(true);

    const started = Date.now();
    expect(await w.wait('r', 2, 60)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    const before = polls;
    await new Promise((r) => setTimeout(r, 50));
    expect(polls).toBe(before); // no polling while nobody waits
  });

  it('ignores notifications for other rooms or older seqs; abort and close release waiters', async () => {
    const w = (watcher = createRoomWatcher({ maxSeq: () => Promise.resolve(3), intervalMs: 10 }));
    const ac = new AbortController();
    const aborted = w.wait('r', 3, 5000, ac.signal);
    w.notify('other', 9);
    w.notify('r', 3);
    ac.abort();
    expect(await aborted).toBe(false);
    const closed = w.wait('r', 3, 5000);
    w.close();
    expect(await closed).toBe(false);
    expect(await w.wait('r', 0, 5000)).toBe(false);
  });
});
