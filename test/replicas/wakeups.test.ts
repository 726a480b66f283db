// What one replica does reaching a waiter on another: a room post through replica A ends a
// long-poll waiting on replica C within one second, an approval decided through replica B's
// REST releases the tool call waiting on replica A, and three replicas each sweeping expired
// leases on a timer return every expired claim exactly once.
import { afterEach, describe, expect, it } from 'vitest';

import { seedTasks } from '../concurrency/fixtures.js';
import { call, okData } from '../concurrency/spawn.js';
import { type Replica, type ReplicaSet, startReplicas } from './harness.js';

let set: ReplicaSet | undefined;
afterEach(async () => {
  await set?.dispose();
  set = undefined;
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 100 ms until it returns a value, for at most `ms`. */
async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

function trio(s: ReplicaSet): [Replica, Replica, Replica] {
  const [a, b, c] = s.replicas;
  if (a === undefined || b === undefined || c === undefined) throw new Error('need 3 replicas');
  return [a, b, c];
}

// Three processes starting on a shared 2-core box can take a while: a wide per-test bound.
describe('waking waiters across replicas', { timeout: 180_000 }, () => {
  it('a room post on replica A ends a long-poll waiting on replica C within one second', async () => {
    const s = (set = await startReplicas());
    const [a, , c] = trio(s);
    const poster = await s.connect(a.base, 'teamchat', 'alice');
    const reader = await s.connect(c.base, 'teamchat', 'bob');
    const room = { teamId: 't1' };

    const started = Date.now();
    const waiting = call(reader, 'team_chat_subscribe', {
      ...room,
      authorAgentId: 'bob',
      sinceSeq: 0,
      waitMs: 20_000,
    }).then((outcome) => ({ outcome, at: Date.now() }));
    // Let the long-poll reach replica C and start waiting before anything is posted.
    await sleep(500);
    const posted = okData<{ posted: { seq: number } }>(
      await call(poster, 'team_chat_post', { ...room, authorAgentId: 'alice', text: 'from A' }),
    );
    const ackedAt = Date.now();
    const { outcome, at } = await waiting;
    const page = okData<{ posts: { seq: number; authorAgentId: string }[]; nextSeq: number }>(
      outcome,
    );
    expect(page.posts.map((p) => [p.seq, p.authorAgentId])).toEqual([[posted.posted.seq, 'alice']]);
    // It waited for the post (not answered early), and woke within a second of the post's ack.
    expect(at - started).toBeGreaterThanOrEqual(500);
    expect(at - ackedAt).toBeLessThan(1000);
  });

  it('an approval decided through replica B releases the tool call waiting on replica A', async () => {
    const s = (set = await startReplicas());
    const [a, b] = trio(s);
    const agent = await s.connect(a.base, 'tools', 'deleter');
    const waiting = call(agent, 'delete_path', { path: '/tmp/cairn-replica-demo' });

    const pending = await until('a pending approval on replica B', 20_000, async () => {
      const listed = await s.rest(b.base, 'GET', '/api/approvals?status=pending');
      const rows = listed.body['approvals'] as { id: string; tool: string }[] | undefined;
      return rows?.find((r) => r.tool === 'delete_path');
    });
    const decided = await s.rest(b.base, 'POST', `/api/approvals/${pending.id}`, {
      decision: 'allow_once',
      decidedBy: 'reviewer-on-b',
    });
    expect(decided.status).toBe(200);

    const result = okData(await waiting);
    expect(result).toMatchObject({ path: '/tmp/cairn-replica-demo', deleted: false });
    const row = await s.rest(a.base, 'GET', `/api/approvals/${pending.id}`);
    expect(row.body).toMatchObject({ status: 'allowed', decidedBy: 'reviewer-on-b' });
  });

  it('three replicas sweeping expired leases on a timer return each claim exactly once', async () => {
    // --lease-ms 4000: claims last 4 s (time to make them all before the first expires, since a
    // claim sweeps too) and every replica's timer sweeps every second.
    const s = (set = await startReplicas({ args: ['--lease-ms', '4000'] }));
    const ids = await s.withCore((core) => seedTasks(core, 12));
    const clients = await Promise.all(
      s.replicas.map((r, i) => s.connect(r.base, 'tasks', `claimer-${i}`)),
    );
    for (const [n, taskId] of ids.entries()) {
      const client = clients[n % clients.length];
      if (client === undefined) throw new Error('no client');
      okData(await call(client, 'claim_task', { taskId, assigneeAgentId: `agent-${n % 3}` }));
    }
    // Every replica's sweeper gets several turns; nothing else reads the board meanwhile.
    await until('every claim to expire and be returned', 30_000, async () => {
      const rows = await s.withCore((core) =>
        core.store.all<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE status = 'todo'"),
      );
      return rows[0]?.n === ids.length ? true : undefined;
    });
    await sleep(3000);

    const counts = await s.withCore(async (core) => ({
      events: await core.store.all<{ task_id: string; n: number }>(
        "SELECT task_id, COUNT(*) AS n FROM task_events WHERE actor = 'lease' GROUP BY task_id",
      ),
      comments: await core.store.all<{ task_id: string; n: number }>(
        "SELECT task_id, COUNT(*) AS n FROM task_comments WHERE author_type = 'system' GROUP BY task_id",
      ),
      inbox: await core.store.all<{ n: number }>(
        "SELECT COUNT(*) AS n FROM agent_inbox WHERE kind = 'comment'",
      ),
    }));
    const once = (rows: { task_id: string; n: number }[]) =>
      Object.fromEntries(rows.map((r) => [r.task_id, r.n]));
    const expected = Object.fromEntries(ids.map((id) => [id, 1]));
    expect(once(counts.events)).toEqual(expected);
    expect(once(counts.comments)).toEqual(expected);
    expect(counts.inbox[0]?.n).toBe(ids.length);
    // The replicas' own logs add up to one return per claim, and the sweep ran on the timer.
    const returned = s.replicas
      .flatMap((r) => [...r.stderr().matchAll(/"returned":(\d+)/g)])
      .reduce((sum, m) => sum + Number(m[1]), 0);
    expect(returned).toBe(ids.length);
  });
});
