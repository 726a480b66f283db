// The tasks refusal circuit across processes: two stdio servers bound to one agent on one file
// each hit the same creation cap; their combined count opens the circuit for both, so the state
// lives in the database, not in either process. A third agent's process is unaffected.
import { afterEach, describe, expect, it } from 'vitest';

import { type Arena, createArena } from './fixtures.js';
import { call, okData, type Outcome, type TasksProcess } from './spawn.js';

const NOT_FOUND = {
  kind: 'tool-error',
  text: 'parent not found: no-such-parent',
  meta: { denied: { reason: 'parent_not_found' } },
};
const OPEN_TEXT =
  /^task rejected: repeated parent_not_found refusals \(5 in 10 min\); task creation paused for this caller until \S+$/;

const hitWall = (p: TasksProcess, title: string): Promise<Outcome> =>
  call(p.client, 'create_subtask', { parentTaskId: 'no-such-parent', title });

describe('refusal circuit across processes', () => {
  let arena: Arena | undefined;
  afterEach(async () => {
    await arena?.dispose();
    arena = undefined;
  });

  it('refusals of one agent in two processes add up and open the circuit for both', async () => {
    const a = (arena = await createArena());
    const [one, two] = await Promise.all([
      a.pool.spawn(['--agent', 'looper']),
      a.pool.spawn(['--agent', 'looper']),
    ]);
    const other = await a.pool.spawn(['--agent', 'bystander']);
    if (one === undefined || two === undefined) throw new Error('spawn');

    // 2 + 2 concurrently, then the 5th from the first process: no process saw 5 by itself.
    const racing = await Promise.all([
      hitWall(one, 'a1'),
      hitWall(two, 'b1'),
      hitWall(one, 'a2'),
      hitWall(two, 'b2'),
    ]);
    for (const o of racing) expect(o).toEqual(NOT_FOUND);
    okData(await call(two.client, 'create_task', { title: 'still open for business' }));
    expect(await hitWall(one, 'a3')).toEqual(NOT_FOUND);

    for (const p of [two, one]) {
      const refused = await call(p.client, 'create_task', { title: 'valid' });
      expect(refused).toMatchObject({
        kind: 'tool-error',
        meta: { denied: { reason: 'circuit_open' } },
      });
      if (refused.kind === 'tool-error') expect(refused.text).toMatch(OPEN_TEXT);
    }
    okData(await call(other.client, 'create_task', { title: 'another agent' }));

    const rows = await a.withCore((core) =>
      core.store.all<{ caller: string; reason: string }>(
        'SELECT caller, reason FROM task_circuits',
      ),
    );
    expect(rows).toEqual([{ caller: 'agent:looper', reason: 'parent_not_found' }]);
    expect(a.pool.stderr()).not.toMatch(/internal error|tool call failed/);
  }, 120_000);
});
