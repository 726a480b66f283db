// The waiter's lease on its pending approval, on a fake clock: renewed while the waiter runs;
// once it lapses (the waiter stalled or its process died) the row reads cancelled, a decision
// cancels it for good and is refused, the sweep does the same, and a late renewal cannot
// bring it back.
import { afterEach, describe, expect, it } from 'vitest';

import { openSqliteStore, type Store } from '../store/index.js';
import { WAITER_GONE } from './approval-lease.js';
import { listAudit } from './audit.js';
import { type Broker, createBroker } from './broker.js';
import { ApprovalClosedError } from './errors.js';
import type { Approval } from './model.js';

let store: Store | undefined;
afterEach(() => store?.close());

const config = { approvalLeaseMs: 1000, approvalTtlMs: 60_000, approvalPollMs: 100 };

async function pendingRow(broker: Broker): Promise<Approval> {
  for (let i = 0; i < 1000; i++) {
    const [row] = await broker.listApprovals({ status: 'pending' });
    if (row !== undefined) return row;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error('no pending approval');
}

/** A sleep the test releases by hand: the waiter is stalled until then. */
function stalledSleep(): { sleep: () => Promise<void>; release(): void } {
  const waiting: Array<() => void> = [];
  return {
    sleep: () => new Promise<void>((r) => waiting.push(r)),
    release: () => waiting.splice(0).forEach((r) => r()),
  };
}

const cancelRows = async (s: Store, approvalId: string) =>
  (await listAudit(s, { step: 'approval', outcome: 'cancelled' })).entries.filter(
    (e) => (e.detail as { approvalId?: string }).approvalId === approvalId,
  );

describe('approval leases', () => {
  it('a live waiter keeps renewing: long past one lease it can still be approved', async () => {
    store = await openSqliteStore(':memory:');
    let now = 1_000;
    const broker = createBroker(store, {
      clock: () => now,
      config,
      sleep: async () => {
        now += 250;
        await new Promise((r) => setImmediate(r));
      },
    });
    const call = broker.call({ tool: 'delete_path', args: { path: '/x' }, caller: 'c' });
    const row = await pendingRow(broker);
    while (now < 6_000) await new Promise((r) => setTimeout(r, 1));
    const live = await broker.getApproval(row.id);
    expect(live.status).toBe('pending');
    expect(live.leaseUntil).toBeGreaterThan(5_000);
    await broker.decide(row.id, 'allow_once');
    await expect(call).resolves.toMatchObject({ data: { path: '/x', deleted: false } });
  });

  it('a lapsed lease reads cancelled; a decision records it and is refused', async () => {
    store = await openSqliteStore(':memory:');
    let now = 1_000;
    const stalled = stalledSleep();
    const waiter = createBroker(store, { clock: () => now, config, sleep: stalled.sleep });
    const call = waiter.call({ tool: 'delete_path', args: { path: '/y' }, caller: 'c' });
    const row = await pendingRow(waiter);
    expect(row.leaseUntil).toBe(row.createdAt + 1000);
    now = row.leaseUntil ?? 0;
    // Another process's view: not pending any more, cancelled because its waiter is gone.
    const decider = createBroker(store, { clock: () => now, config });
    expect(await decider.listApprovals({ status: 'pending' })).toEqual([]);
    expect(await decider.listApprovals({ status: 'cancelled' })).toMatchObject([{ id: row.id }]);
    expect(await decider.getApproval(row.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: WAITER_GONE,
    });
    const refused = decider.decide(row.id, 'allow_always');
    await expect(refused).rejects.toBeInstanceOf(ApprovalClosedError);
    await expect(refused).rejects.toThrow(`approval ${row.id} was cancelled (${WAITER_GONE})`);
    expect(await cancelRows(store, row.id)).toHaveLength(1);
    await expect(decider.decide(row.id, 'deny')).rejects.toThrow(/was cancelled/);
    expect(await cancelRows(store, row.id)).toHaveLength(1);
    // The stalled waiter wakes up: its renewal is refused and it ends cancelled, unrun.
    stalled.release();
    await expect(call).rejects.toThrow(/cancelled while waiting for approval \(waiter process/);
    expect(await decider.getApproval(row.id)).toMatchObject({ status: 'cancelled' });
    const steps = (await listAudit(store, { callId: row.callId })).entries.map((e) => e.step);
    expect(steps).not.toContain('execution');
  });

  it('the sweep cancels rows whose waiter is gone, once', async () => {
    store = await openSqliteStore(':memory:');
    let now = 1_000;
    const stalled = stalledSleep();
    const waiter = createBroker(store, { clock: () => now, config, sleep: stalled.sleep });
    const call = waiter.call({ tool: 'delete_path', args: { path: '/z' }, caller: 'c' });
    call.catch(() => undefined);
    const row = await pendingRow(waiter);
    expect(await waiter.sweepAbandonedApprovals()).toBe(0);
    now += 1000;
    expect(await waiter.sweepAbandonedApprovals()).toBe(1);
    expect(await waiter.sweepAbandonedApprovals()).toBe(0);
    expect(await waiter.getApproval(row.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: WAITER_GONE,
      decidedAt: now,
    });
    expect(await cancelRows(store, row.id)).toHaveLength(1);
    stalled.release();
    await expect(call).rejects.toThrow(/cancelled/);
  });

  it('closing the broker cancels its own waiting calls and waits for them', async () => {
    store = await openSqliteStore(':memory:');
    const broker = createBroker(store, { config: { approvalPollMs: 5 } });
    const call = broker.call({ tool: 'delete_path', args: { path: '/w' }, caller: 'c' });
    call.catch(() => undefined);
    const row = await pendingRow(broker);
    await broker.close();
    expect(await broker.getApproval(row.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'waiter process gone: the server process is shutting down',
    });
    await expect(call).rejects.toThrow(/cancelled/);
  });
});
