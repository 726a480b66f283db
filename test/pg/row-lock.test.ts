// The row lock a 'rows' write takes before it checks a row (rowLockClause, used by approval
// decisions): on PostgreSQL a second writer's locked read waits for the first to commit and then
// reads what it committed; a plain read under READ COMMITTED sees the old row at once, which is
// why a check made on it would not hold (two deciders both seeing `pending`).
import { afterEach, describe, expect, it } from 'vitest';

import {
  openPgStore,
  type Queryable,
  ROW_LOCKS,
  rowLockClause,
  type Store,
} from '../../src/store/index.js';
import { freshPgDatabase, pgAdminUrl } from '../pg-databases.js';

const adminUrl = pgAdminUrl() ?? '';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function pendingApproval(store: Store, id: string): Promise<void> {
  await store.run(
    `INSERT INTO tool_approvals (id, call_id, tool, caller, args, reason, status, created_at,
       expires_at) VALUES (?, ?, 'delete_path', 'client:t', '{}', 'r', 'pending', 1, ?)`,
    [id, `call-${id}`, Date.now() + 60_000],
  );
}

const statusOf = async (tx: Queryable, id: string, lock: string): Promise<string | undefined> =>
  (await tx.get<{ status: string }>(`SELECT status FROM tool_approvals WHERE id = ?${lock}`, [id]))
    ?.status;

/**
 * Writer 1 reads `id` under the lock and, while holding it, writer 2 reads it (with `lock2`);
 * writer 1 then sets it allowed and commits. Returns what writer 2 read, and whether it had
 * read before writer 1 committed.
 */
async function race(store: Store, id: string, lock2: (tx: Queryable) => string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const holding = new Promise<void>((r) => (locked = r));
  const first = store.write(async (tx) => {
    await statusOf(tx, id, rowLockClause(tx));
    locked();
    await gate;
    await tx.run("UPDATE tool_approvals SET status = 'allowed' WHERE id = ?", [id]);
  }, ROW_LOCKS);
  await holding;
  let readEarly = false;
  let committed = false;
  const second = store.write(async (tx) => {
    const seen = await statusOf(tx, id, lock2(tx));
    readEarly = !committed;
    return seen;
  }, ROW_LOCKS);
  await sleep(300);
  committed = true;
  release();
  await first;
  return { seen: await second, readEarly };
}

describe.skipIf(adminUrl === '')('rowLockClause on PostgreSQL', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('makes a second locked read wait for the first writer, then see its commit', async () => {
    const db = await freshPgDatabase(adminUrl);
    const store = await openPgStore(db.url);
    cleanups.push(db.drop, () => store.close());
    expect(rowLockClause(store)).toBe(' FOR UPDATE');
    await pendingApproval(store, 'a');
    expect(await race(store, 'a', rowLockClause)).toEqual({ seen: 'allowed', readEarly: false });
    // Without the lock the second read does not wait and sees the row still pending.
    await pendingApproval(store, 'b');
    expect(await race(store, 'b', () => '')).toEqual({ seen: 'pending', readEarly: true });
  });
});
