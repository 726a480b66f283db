// Board writes wake the board stream of another core (another replica): the watch runs on core
// A with a ten-minute poll on PostgreSQL, so only the `board` signal can reach it, while core B
// creates, claims, comments on and completes a task; each change must reach A within one
// second. On SQLite signals stay in their process: the watch polls the file (25 ms) instead.
import { afterEach, describe, expect, it } from 'vitest';

import { boardViewMark, createBoardWatch } from '../../src/http/board-stream.js';
import { listening, type SharedDb, sharedDb } from './shared-db.js';

let db: SharedDb | undefined;
afterEach(async () => {
  await db?.dispose();
  db = undefined;
});

/** Resolves true when `p` settles within `ms`, false otherwise. */
const within = (p: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('board wake-ups across cores', () => {
  it('a task created, claimed, commented on and completed on core B each reach a watch on core A within 1 s', async () => {
    db = await sharedDb();
    const onPg = db.url !== undefined;
    const a = await db.core({ embedder: null });
    const b = await db.core({ embedder: null });
    await listening(a.store);
    const errors: unknown[] = [];
    const watch = createBoardWatch(boardViewMark(a.board, a.broker), {
      intervalMs: onPg ? 600_000 : 25,
      wake: (fn) => a.board.onChange(fn),
      onError: (err) => errors.push(err),
    });
    let changed!: () => void;
    let next = new Promise<void>((r) => (changed = r));
    let reads = 0;
    const stop = watch.subscribe(() => {
      reads += 1;
      changed();
    });
    const latencies: number[] = [];
    /** Runs `write` on B and measures how long until A's watch reports the change. */
    const timed = async (write: () => Promise<unknown>): Promise<void> => {
      next = new Promise<void>((r) => (changed = r));
      const started = performance.now();
      await write();
      expect(await within(next, 5_000)).toBe(true);
      latencies.push(performance.now() - started);
    };
    try {
      // The watch's first read sets its baseline; a change before it would go unreported.
      await new Promise((r) => setTimeout(r, 300));
      let id = '';
      await timed(async () => {
        id = (await b.board.createTask({ title: 'woken on A', teamId: 't1' })).id;
      });
      await timed(() => b.board.claimTask({ taskId: id, assigneeAgentId: 'agent-b' }));
      await timed(() => b.board.addComment({ taskId: id, body: 'halfway there' }));
      await timed(() => b.board.updateStatus(id, 'in_review', { agentId: 'agent-b' }));
      await timed(() => b.board.updateStatus(id, 'done', { agentId: 'agent-b' }));
      expect(latencies).toHaveLength(5);
      for (const ms of latencies) expect(ms).toBeLessThan(1_000);
      expect(reads).toBe(5);
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
  });

  it('only a committed board write signals: a refused claim wakes no one', async () => {
    db = await sharedDb();
    const a = await db.core({ embedder: null });
    const b = await db.core({ embedder: null });
    await listening(a.store);
    // On SQLite a signal reaches its own process's subscribers only: write on A there.
    const writer = a.store.signals.reach === 'database' ? b : a;
    let heard = 0;
    const off = a.board.onChange(() => (heard += 1));
    const settle = async (count: number): Promise<void> => {
      for (let i = 0; i < 50 && heard < count; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
    };
    try {
      const task = await writer.board.createTask({ title: 'taken' });
      await writer.board.claimTask({ taskId: task.id, assigneeAgentId: 'first' });
      await settle(2);
      expect(heard).toBe(2);
      heard = 0;
      await expect(
        writer.board.claimTask({ taskId: task.id, assigneeAgentId: 'second' }),
      ).rejects.toThrow(/conflict: .*assigned to first/);
      await settle(1);
      expect(heard).toBe(0);
      await writer.board.addComment({ taskId: task.id, body: 'still here' });
      await settle(1);
      expect(heard).toBe(1);
    } finally {
      off();
    }
  });
});
