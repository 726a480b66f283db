// Writes racing across three `cairn serve` replicas on one PostgreSQL database: 16 SDK clients
// spread over the replicas race claim_task (exactly one winner per task, every loser a conflict,
// no other error), and a replica SIGKILLed while clients write through all three loses no
// write any client was told succeeded, while the other two keep serving.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';

import { seedTasks } from '../concurrency/fixtures.js';
import { call, type Outcome, shuffled } from '../concurrency/spawn.js';
import { type ReplicaSet, startReplicas } from './harness.js';

let set: ReplicaSet | undefined;
afterEach(async () => {
  await set?.dispose();
  set = undefined;
});

/** Client i is pinned to replica i mod 3. */
async function spread(s: ReplicaSet, n: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < n; i++) {
    const replica = s.replicas[i % s.replicas.length];
    clients.push(await s.connect(replica?.base ?? '', 'tasks', `agent-${i}`));
  }
  return clients;
}

async function closeClients(clients: readonly Client[], which: readonly number[]): Promise<void> {
  await Promise.all(which.map((i) => clients[i]?.close()));
}

// Three processes starting on a shared 2-core box can take a while: a wide per-test bound.
describe('three replicas, one database', { timeout: 180_000 }, () => {
  it('16 clients over 3 replicas racing claim_task on 60 tasks: exactly one winner each, no errors', async () => {
    const s = (set = await startReplicas());
    const ids = await s.withCore((core) => seedTasks(core, 60));
    const clients = await spread(s, 16);

    const attempts = (
      await Promise.all(
        clients.map(async (client, i) => {
          const agent = `agent-${i}`;
          const mine: { taskId: string; agent: string; outcome: Outcome }[] = [];
          for (const taskId of shuffled(ids)) {
            const outcome = await call(client, 'claim_task', { taskId, assigneeAgentId: agent });
            mine.push({ taskId, agent, outcome });
          }
          return mine;
        }),
      )
    ).flat();
    expect(attempts).toHaveLength(16 * 60);
    const bad = attempts.filter(
      (x) =>
        x.outcome.kind === 'rpc-error' ||
        (x.outcome.kind === 'tool-error' && !x.outcome.text.startsWith('conflict')),
    );
    expect(bad.slice(0, 5)).toEqual([]);

    const winners = new Map<string, string[]>();
    for (const x of attempts) {
      if (x.outcome.kind !== 'ok') continue;
      expect(x.outcome.data['assigneeAgentId']).toBe(x.agent);
      winners.set(x.taskId, [...(winners.get(x.taskId) ?? []), x.agent]);
    }
    for (const id of ids) expect(winners.get(id), `winners of ${id}`).toHaveLength(1);
    // Winners came through every replica, not one.
    const winningReplicas = new Set(
      [...winners.values()].map((w) => Number(w[0]?.slice('agent-'.length)) % 3),
    );
    expect(winningReplicas.size).toBe(3);

    const rows = await s.withCore((core) =>
      core.store.all<{ id: string; status: string; assignee_agent_id: string | null }>(
        'SELECT id, status, assignee_agent_id FROM tasks',
      ),
    );
    expect(rows).toHaveLength(60);
    for (const row of rows) {
      expect(row.status).toBe('in_progress');
      expect(row.assignee_agent_id).toBe(winners.get(row.id)?.[0]);
    }
    const events = await s.withCore((core) =>
      core.store.all<{ n: number }>(
        "SELECT COUNT(*) AS n FROM task_events WHERE to_status = 'in_progress'",
      ),
    );
    expect(events[0]?.n).toBe(60);
    for (const r of s.replicas) expect(r.stderr()).not.toMatch(/"level":(50|60)/);
  });

  it('SIGKILL of one replica mid-load loses no acknowledged write; the other two keep serving', async () => {
    const s = (set = await startReplicas());
    const [task] = await s.withCore((core) => seedTasks(core, 1));
    const victim = s.replicas[1];
    if (task === undefined || victim === undefined) throw new Error('no task or replica');
    const clients = await spread(s, 6);
    const acked: string[] = [];
    let killed: Promise<void> | undefined;
    const PER_CLIENT = 40;

    const failures = await Promise.all(
      clients.map(async (client, i) => {
        for (let n = 0; n < PER_CLIENT; n++) {
          const body = `client ${i} write ${n}`;
          const outcome = await call(client, 'add_comment', { taskId: task, body });
          if (outcome.kind !== 'ok') return { client: i, n, outcome };
          acked.push(String(outcome.data['id']));
          // Kill replica r1 once a third of the writes are acknowledged, with all six writing.
          if (killed === undefined && acked.length >= (6 * PER_CLIENT) / 3) {
            // A call in flight on r1 would wait out its timeout (the SDK keeps an SSE response
            // open for a resume); its client gives up at once instead, as a runtime would.
            killed = victim.kill().then(() => closeClients(clients, [1, 4]));
          }
        }
        return undefined;
      }),
    );
    await killed;
    expect(victim.alive()).toBe(false);

    // Only the two clients pinned to r1 (1 and 4) stopped, each on a transport error.
    const stopped = failures.filter((f) => f !== undefined);
    expect(stopped.map((f) => f.client).sort()).toEqual([1, 4]);
    for (const f of stopped) expect(f.outcome.kind).toBe('rpc-error');

    // Every acknowledged comment is in the database.
    const stored = await s.withCore((core) =>
      core.store.all<{ id: string }>('SELECT id FROM task_comments WHERE task_id = ?', [task]),
    );
    const have = new Set(stored.map((r) => String(r.id)));
    expect(acked.filter((id) => !have.has(id))).toEqual([]);
    expect(acked.length).toBeGreaterThanOrEqual(4 * PER_CLIENT);

    // The survivors still serve new sessions.
    for (const r of s.replicas.filter((x) => x !== victim)) {
      const fresh = await s.connect(r.base, 'tasks', `after-${r.id}`);
      const outcome = await call(fresh, 'add_comment', { taskId: task, body: `after ${r.id}` });
      expect(outcome.kind).toBe('ok');
    }
  });
});
