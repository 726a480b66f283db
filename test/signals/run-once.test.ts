// Background work that must run once with several cores on one database: three cores sweeping
// expired claim leases at the same time return each claim to todo once (one `lease` event and
// one system comment per task), and three embedding backlogs draining one corpus at the same
// time embed each item once (embedder texts counted across the three). On PostgreSQL the
// run-once locks are advisory locks; on SQLite each core runs its own passes and the file's
// single writer keeps the sweep exact (the embedding count is checked on PostgreSQL only).
import { afterEach, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { createEmbedBacklog, type EmbedBacklogSource } from '../../src/embed/index.js';
import type { Store } from '../../src/store/index.js';
import { type SharedDb, sharedDb } from './shared-db.js';

let db: SharedDb | undefined;
afterEach(async () => {
  await db?.dispose();
  db = undefined;
});

describe('run-once background work', () => {
  it('three cores sweeping at once return each expired claim to todo once', async () => {
    db = await sharedDb();
    let now = Date.UTC(2031, 0, 1);
    const clock = (): number => now;
    const cores: Core[] = [];
    for (let i = 0; i < 3; i++)
      cores.push(await db.core({ clock, leaseMs: 60_000, embedder: null }));
    const [a] = cores;
    if (a === undefined) throw new Error('no core');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const t = await a.board.createTask({ title: `claimed ${i}` });
      await a.board.claimTask({ taskId: t.id, assigneeAgentId: `agent-${i % 3}` });
      ids.push(t.id);
    }
    now += 120_000;
    let swept = 0;
    for (let round = 0; round < 4; round++) {
      const counts = await Promise.all(cores.map((c) => c.board.sweepExpiredLeases()));
      swept += counts.reduce((x, y) => x + y, 0);
    }
    expect(swept).toBe(ids.length);
    for (const id of ids) {
      const events = await a.store.all<{ actor: string }>(
        "SELECT actor FROM task_events WHERE task_id = ? AND actor = 'lease'",
        [id],
      );
      const comments = await a.store.all<{ body: string }>(
        "SELECT body FROM task_comments WHERE task_id = ? AND author_type = 'system'",
        [id],
      );
      expect(events).toHaveLength(1);
      expect(comments).toHaveLength(1);
      expect((await a.board.getTask(id)).task.status).toBe('todo');
    }
  });

  it('three backlogs draining one corpus at once embed each item once (PostgreSQL)', async () => {
    db = await sharedDb();
    if (db.url === undefined) return;
    const stores: Store[] = [await db.store(), await db.store(), await db.store()];
    const [first] = stores;
    if (first === undefined) throw new Error('no store');
    await first.run(
      'CREATE TABLE probe_items (id BIGINT PRIMARY KEY, text TEXT NOT NULL, model TEXT)',
    );
    for (let id = 1; id <= 40; id++) {
      await first.run('INSERT INTO probe_items (id, text) VALUES (?, ?)', [id, `item ${id}`]);
    }
    const embedded: string[] = [];
    const backlogs = stores.map((store) =>
      createEmbedBacklog({
        source: probeSource(store),
        embedder: {
          model: 'probe',
          embed: (texts) => {
            embedded.push(...texts);
            // Yield so the other cores' passes run meanwhile.
            return new Promise((r) =>
              setTimeout(() => r(texts.map(() => new Float32Array([1]))), 5),
            );
          },
        },
        batchSize: 4,
        runOnce: (fn) => store.locks.tryRun('embed:probe', fn),
      }),
    );
    const totals = await Promise.all(backlogs.map((b) => b.drain()));
    expect(totals.reduce((x, y) => x + y, 0)).toBe(40);
    expect(embedded).toHaveLength(40);
    expect(new Set(embedded).size).toBe(40);
    await Promise.all(backlogs.map((b) => b.stop()));
  });
});

/** A backlog over the test's probe table: items whose `model` is not set yet. */
function probeSource(store: Store): EmbedBacklogSource {
  return {
    async top() {
      return (
        (await store.get<{ top: number | null }>('SELECT MAX(id) AS top FROM probe_items'))?.top ??
        0
      );
    },
    async next(model, after, limit) {
      return store.all<{ id: number; text: string }>(
        'SELECT id, text FROM probe_items WHERE (model IS NULL OR model <> ?) AND id > ? ORDER BY id LIMIT ?',
        [model, after, limit],
      );
    },
    put: (model, rows) =>
      store.write(async (tx) => {
        for (const r of rows)
          await tx.run('UPDATE probe_items SET model = ? WHERE id = ?', [model, r.id]);
      }),
    async pending(model) {
      const row = await store.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM probe_items WHERE model IS NULL OR model <> ?',
        [model],
      );
      return row?.n ?? 0;
    },
  };
}
