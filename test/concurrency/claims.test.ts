// Claim races across separate OS processes on one database file: the atomic claim and
// claim_next_ready must hand each task to exactly one agent, and lock contention must never
// escape the store's busy retry as a tool error or a JSON-RPC error.
import { afterEach, describe, expect, it } from 'vitest';

import { type Arena, createArena, seedTasks } from './fixtures.js';
import { BUSY_PATTERN, call, type Outcome, shuffled, type TasksProcess } from './spawn.js';

interface TaskRowLite {
  id: string;
  status: string;
  assignee_agent_id: string | null;
}

/** Every non-success outcome must be a conflict tool-error; anything else is reported. */
function unexpected(outcomes: readonly Outcome[]): Outcome[] {
  return outcomes.filter(
    (o) => o.kind === 'rpc-error' || (o.kind === 'tool-error' && !o.text.startsWith('conflict')),
  );
}

describe('claims across processes', () => {
  let arena: Arena | undefined;
  afterEach(async () => {
    await arena?.dispose();
    arena = undefined;
  });

  it('16 processes racing claim_task on 200 tasks: exactly one winner each, no busy errors', async () => {
    const a = (arena = await createArena());
    const ids = await a.withCore((core) => seedTasks(core, 200));
    const procs = await a.pool.spawnMany(16);

    // Each process is one agent working through every task in its own order, one call at a
    // time (as an agent would); all 16 run at once.
    const perProc = await Promise.all(
      procs.map(async (p, i) => {
        const agent = `agent-${i}`;
        const results: { taskId: string; agent: string; outcome: Outcome }[] = [];
        for (const taskId of shuffled(ids)) {
          const outcome = await call(p.client, 'claim_task', { taskId, assigneeAgentId: agent });
          results.push({ taskId, agent, outcome });
        }
        return results;
      }),
    );
    const attempts = perProc.flat();
    expect(attempts).toHaveLength(16 * 200);

    const bad = unexpected(attempts.map((x) => x.outcome));
    expect(bad, `unexpected outcomes (first 5): ${JSON.stringify(bad.slice(0, 5))}`).toEqual([]);
    for (const x of attempts) {
      const text = x.outcome.kind === 'ok' ? '' : JSON.stringify(x.outcome);
      expect(text).not.toMatch(BUSY_PATTERN);
    }

    const winners = new Map<string, string[]>();
    for (const x of attempts) {
      if (x.outcome.kind !== 'ok') continue;
      expect(x.outcome.data['assigneeAgentId']).toBe(x.agent);
      expect(x.outcome.data['status']).toBe('in_progress');
      winners.set(x.taskId, [...(winners.get(x.taskId) ?? []), x.agent]);
    }
    for (const id of ids) expect(winners.get(id), `winners of ${id}`).toHaveLength(1);
    expect(attempts.filter((x) => x.outcome.kind === 'tool-error')).toHaveLength(15 * 200);

    const rows = await a.withCore((core) =>
      core.store.all<TaskRowLite>('SELECT id, status, assignee_agent_id FROM tasks'),
    );
    expect(rows).toHaveLength(200);
    for (const row of rows) {
      expect(row.status).toBe('in_progress');
      expect(row.assignee_agent_id).toBe(winners.get(row.id)?.[0]);
    }
    expect(a.pool.stderr()).not.toMatch(/database is locked|SQLITE_BUSY|tool call failed/);
  }, 120_000);

  it('8 processes looping claim_next_ready never hand one task to two agents', async () => {
    const a = (arena = await createArena());
    const { ready, unready } = await a.withCore(async (core) => {
      const readyIds = await seedTasks(core, 120);
      // Work that must never be handed out: a backlog task and a task waiting on a dependency.
      const backlog = await core.board.createTask({ title: 'later', status: 'backlog' });
      const blocker = await core.board.createTask({ title: 'blocker', status: 'backlog' });
      const waiting = await core.board.createTask({ title: 'waits on blocker', priority: 99 });
      await core.board.linkTask(waiting.id, blocker.id);
      return { ready: readyIds, unready: [backlog.id, blocker.id, waiting.id] };
    });
    const procs = await a.pool.spawnMany(8);

    const drain = async (p: TasksProcess, agent: string): Promise<string[]> => {
      const got: string[] = [];
      for (let guard = 0; guard <= ready.length; guard++) {
        const o = await call(p.client, 'claim_next_ready', { assigneeAgentId: agent });
        if (o.kind !== 'ok') throw new Error(`${agent}: ${JSON.stringify(o)}`);
        const task = o.data['task'] as { id: string; assigneeAgentId: string } | null;
        if (task === null) return got;
        expect(task.assigneeAgentId).toBe(agent);
        got.push(task.id);
      }
      throw new Error(`${agent} claimed more tasks than exist`);
    };
    const byAgent = await Promise.all(procs.map((p, i) => drain(p, `agent-${i}`)));

    const all = byAgent.flat();
    expect(new Set(all).size, 'a task was handed to two agents').toBe(all.length);
    expect([...all].sort()).toEqual([...ready].sort());

    const rows = await a.withCore((core) =>
      core.store.all<TaskRowLite>('SELECT id, status, assignee_agent_id FROM tasks'),
    );
    const owner = new Map(byAgent.flatMap((ids, i) => ids.map((id) => [id, `agent-${i}`])));
    for (const row of rows) {
      if (unready.includes(row.id)) {
        expect(row.assignee_agent_id).toBeNull();
        continue;
      }
      expect(row.status).toBe('in_progress');
      expect(row.assignee_agent_id).toBe(owner.get(row.id));
    }
    expect(a.pool.stderr()).not.toMatch(/database is locked|SQLITE_BUSY|tool call failed/);
  }, 120_000);
});
