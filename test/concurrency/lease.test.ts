// Lease expiry across processes: an agent's process dies holding claims (SIGKILL, no
// cleanup); once the lease lapses another process's sweep returns the work to todo with a
// system comment, and a live agent can claim it again.
import { afterEach, describe, expect, it } from 'vitest';

import { type Arena, createArena } from './fixtures.js';
import { call, pollUntil } from './spawn.js';

const LEASE = ['--lease-ms', '1000'];

interface Detail {
  task: { status: string; assigneeAgentId: string | null };
  comments: { body: string; authorType: string }[];
}

describe('lease expiry across processes', () => {
  let arena: Arena | undefined;
  afterEach(async () => {
    await arena?.dispose();
    arena = undefined;
  });

  it("a SIGKILLed agent's claims return to todo and another process claims them", async () => {
    const a = (arena = await createArena());
    const [swept, reclaimed] = await a.withCore(async (core) => [
      (await core.board.createTask({ title: 'swept by the background sweeper' })).id,
      (await core.board.createTask({ title: 'reclaimed by claim_task' })).id,
    ]);
    const [dying, survivor] = await a.pool.spawnMany(2, LEASE);
    if (dying === undefined || survivor === undefined) throw new Error('spawn failed');

    for (const taskId of [swept, reclaimed]) {
      const o = await call(dying.client, 'claim_task', { taskId, assigneeAgentId: 'dead-agent' });
      expect(o).toMatchObject({ kind: 'ok', data: { assigneeAgentId: 'dead-agent' } });
    }
    dying.kill('SIGKILL');

    // The survivor's sweeper (every max(1 s, lease/4)) returns the expired claim to todo.
    const detail = await pollUntil('the lease sweep', 20_000, async () => {
      const o = await call(survivor.client, 'get_task', { taskId: swept });
      if (o.kind !== 'ok') throw new Error(JSON.stringify(o));
      const d = o.data as unknown as Detail;
      return d.task.status === 'todo' ? d : undefined;
    });
    expect(detail.task.assigneeAgentId).toBeNull();
    expect(detail.comments).toContainEqual(
      expect.objectContaining({
        authorType: 'system',
        body: 'lease expired: claim by dead-agent returned the task to todo',
      }),
    );
    const claimed = await call(survivor.client, 'claim_task', {
      taskId: swept,
      assigneeAgentId: 'live-agent',
    });
    expect(claimed).toMatchObject({ kind: 'ok', data: { assigneeAgentId: 'live-agent' } });

    // The other claim (expired by now) is reclaimed directly: a conflict only while it is held.
    const again = await pollUntil('reclaim after expiry', 20_000, async () => {
      const o = await call(survivor.client, 'claim_task', {
        taskId: reclaimed,
        assigneeAgentId: 'live-agent',
      });
      if (o.kind === 'ok') return o;
      if (o.kind === 'tool-error' && o.text.startsWith('conflict')) return undefined;
      throw new Error(JSON.stringify(o));
    });
    expect(again.data).toMatchObject({ status: 'in_progress', assigneeAgentId: 'live-agent' });
    const after = await call(survivor.client, 'get_task', { taskId: reclaimed });
    expect(after).toMatchObject({
      kind: 'ok',
      data: {
        comments: [
          {
            authorType: 'system',
            body: 'lease expired: claim by dead-agent returned the task to todo',
          },
        ],
      },
    });
  }, 120_000);
});
