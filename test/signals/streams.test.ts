// The dashboard's approvals stream poller woken across cores: the watch runs on core A with a
// ten-minute poll, a call on core B starts waiting for an approval and a human decides it on
// core B; each change reaches A's watch with one read of the pending set per change. On SQLite
// the watch polls the file instead (a short interval), as it always did.
import { afterEach, describe, expect, it } from 'vitest';

import type { Broker } from '../../src/broker/index.js';
import { createApprovalsWatch } from '../../src/http/approvals-stream.js';
import { listening, type SharedDb, sharedDb } from './shared-db.js';

let db: SharedDb | undefined;
afterEach(async () => {
  await db?.dispose();
  db = undefined;
});

describe('approvals stream across cores', () => {
  it('an approval created and decided on core B each reach a watch on core A', async () => {
    db = await sharedDb();
    const onPg = db.url !== undefined;
    const a = await db.core();
    const b = await db.core();
    await listening(a.store);
    let reads = 0;
    const errors: unknown[] = [];
    let firstRead!: () => void;
    const baseline = new Promise<void>((r) => (firstRead = r));
    const counted: Pick<
      Broker,
      'listApprovals' | 'onApprovalSignal' | 'approvalSignalsEverywhere'
    > = {
      listApprovals: async (q) => {
        const rows = await a.broker.listApprovals(q);
        if (++reads === 1) firstRead();
        return rows;
      },
      onApprovalSignal: (fn) => a.broker.onApprovalSignal(fn),
      approvalSignalsEverywhere: a.broker.approvalSignalsEverywhere,
    };
    const watch = createApprovalsWatch(counted, {
      intervalMs: onPg ? 600_000 : 25,
      onError: (err) => errors.push(err),
    });
    const marks: string[] = [];
    let changed!: () => void;
    let next = new Promise<void>((r) => (changed = r));
    const stop = watch.subscribe((mark) => {
      marks.push(mark);
      changed();
    });
    try {
      await baseline;
      let asked!: (id: string) => void;
      const waiting = new Promise<string>((r) => (asked = r));
      const call = b.broker.call({
        tool: 'delete_path',
        args: { path: '/tmp/cairn-stream-test' },
        caller: 'agent-b',
        onWaiting: (info) => asked(info.approvalId),
      });
      const id = await waiting;
      await next;
      expect(marks.at(-1)).toContain(id);
      next = new Promise<void>((r) => (changed = r));
      await b.broker.decide(id, 'deny', 'a human on B');
      await next;
      expect(marks.at(-1)).toBe('');
      await expect(call).rejects.toThrow(/denied/);
      // PostgreSQL: one baseline read and one read per signal (a decision is one signal here;
      // the waiter's own audit writes send none), never a poll.
      if (onPg) expect(reads).toBeLessThanOrEqual(3);
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });
});
