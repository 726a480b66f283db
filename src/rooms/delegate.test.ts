// team_delegate is one write: the task, its assignment to the teammate, its "Delegated by"
// note and the audit row commit together, so a process dying (or a write failing) half-way
// leaves no unassigned task another agent could claim. Found by test/crash: delegation used
// to be four transactions.
import { afterEach, describe, expect, it } from 'vitest';

import { failingStore, type Trap } from '../../test/failing-store.js';
import { tempCore } from '../../test/helpers.js';
import { createBoard } from '../board/index.js';
import { createRooms } from './rooms.js';

const STEPS: Record<string, Trap> = {
  assignment: (sql) => sql.includes("SET status = 'in_progress'"),
  note: (sql) => sql.startsWith('INSERT INTO task_comments'),
  audit: (sql, params) => sql.includes('INSERT INTO audit_log') && params[2] === 'team_delegate',
};

describe('team_delegate atomicity', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it.each(Object.keys(STEPS))('a failure writing the %s leaves no task behind', async (step) => {
    const t = await tempCore({ embedder: null });
    cleanups.push(t.close);
    const store = failingStore(t.core.store, STEPS[step] ?? (() => false));
    const board = createBoard(store);
    const rooms = createRooms(store, { board });
    await rooms.join('team:t1', 'bob');

    const delegation = rooms.delegate({
      teamId: 't1',
      caller: 'lead',
      assignee: 'bob',
      task: 'Write the notes',
    });

    await expect(delegation).rejects.toThrow('simulated crash');
    rooms.close();
    const tasks = await t.core.store.all<{ id: string }>('SELECT id FROM tasks');
    expect(tasks).toEqual([]);
    const comments = await t.core.store.all('SELECT id FROM task_comments');
    expect(comments).toEqual([]);
  });
});
