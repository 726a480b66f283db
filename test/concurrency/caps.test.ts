// Creation caps under cross-process races: the checks and the insert share one BEGIN
// IMMEDIATE transaction, so racing processes can never land the N+1th child or root.
import { afterEach, describe, expect, it } from 'vitest';

import { type Arena, createArena } from './fixtures.js';
import { call, type Outcome } from './spawn.js';

const CHILD_CAP_TEXT =
  'subtask rejected: parent already has 24 children (max 24); drop one or attach the new task elsewhere';
const ROOT_RATE_TEXT =
  'task rejected: 30 root tasks already created in the last 5 min (max 30); wait for the window to roll or file the work as subtasks of an existing task';

// One unbound process may collect several refusals here; the refusal circuit (5 by default)
// would turn its later calls into circuit_open, which is not what these races measure.
const NO_CIRCUIT = { env: { CAIRN_CIRCUIT_THRESHOLD: '1000' } };

function split(outcomes: readonly Outcome[]) {
  return {
    ok: outcomes.filter((o) => o.kind === 'ok'),
    refused: outcomes.filter((o) => o.kind === 'tool-error'),
    rpc: outcomes.filter((o) => o.kind === 'rpc-error'),
  };
}

describe('creation caps across processes', () => {
  let arena: Arena | undefined;
  afterEach(async () => {
    await arena?.dispose();
    arena = undefined;
  });

  it('8 processes × 6 create_subtask on one parent: exactly 24 children land', async () => {
    const a = (arena = await createArena(NO_CIRCUIT));
    const parent = await a.withCore((core) => core.board.createTask({ title: 'parent' }));
    const procs = await a.pool.spawnMany(8);

    const outcomes = (
      await Promise.all(
        procs.map((p, i) =>
          Promise.all(
            Array.from({ length: 6 }, (_, j) =>
              call(p.client, 'create_subtask', { parentTaskId: parent.id, title: `c ${i}.${j}` }),
            ),
          ),
        ),
      )
    ).flat();

    const { ok, refused, rpc } = split(outcomes);
    expect(rpc).toEqual([]);
    expect(ok).toHaveLength(24);
    expect(refused).toHaveLength(24);
    for (const o of refused) {
      expect(o).toMatchObject({ text: CHILD_CAP_TEXT, meta: { denied: { reason: 'child_cap' } } });
    }
    for (const o of ok) expect(o).toMatchObject({ data: { parentTaskId: parent.id, depth: 1 } });

    const count = await a.withCore((core) =>
      core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE parent_task_id = ?', [
        parent.id,
      ]),
    );
    expect(count?.n).toBe(24);
  }, 120_000);

  it('40 concurrent root creates over 8 processes: exactly 30 land', async () => {
    const a = (arena = await createArena(NO_CIRCUIT));
    const procs = await a.pool.spawnMany(8);

    const outcomes = (
      await Promise.all(
        procs.map((p, i) =>
          Promise.all(
            Array.from({ length: 5 }, (_, j) =>
              call(p.client, 'create_task', { title: `root ${i}.${j}` }),
            ),
          ),
        ),
      )
    ).flat();

    const { ok, refused, rpc } = split(outcomes);
    expect(rpc).toEqual([]);
    expect(ok).toHaveLength(30);
    expect(refused).toHaveLength(10);
    for (const o of refused) {
      expect(o).toMatchObject({
        text: ROOT_RATE_TEXT,
        meta: { denied: { reason: 'root_rate_cap' } },
      });
    }

    const count = await a.withCore((core) =>
      core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks WHERE parent_task_id IS NULL'),
    );
    expect(count?.n).toBe(30);
  }, 120_000);
});
