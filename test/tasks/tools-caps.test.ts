// Tasks server creation caps through a real SDK client, at the spec's numbers: unknown parent,
// depth cap, child cap (dropped children free a slot), the rolling root rate, empty parent ids.
import { afterEach, describe, expect, it } from 'vitest';

import type { Task } from '../../src/board/index.js';
import { callErr, callInvalid, callOk, fakeClock, tasksSessions } from '../helpers.js';

const sessions = tasksSessions();
afterEach(() => sessions.closeAll());

const DEPTH_CAP =
  'subtask rejected: parent is at the maximum nesting depth (2); attach the new task higher in the tree';
const CHILD_CAP =
  'subtask rejected: parent already has 24 children (max 24); drop one or attach the new task elsewhere';
const ROOT_CAP = /^task rejected: 30 root tasks already created in the last 5 min \(max 30\); /;

type Client = Awaited<ReturnType<typeof sessions.open>>['client'];

const count = async (client: Client): Promise<number> =>
  (await callOk<{ tasks: Task[] }>(client, 'list_tasks', {})).tasks.length;

/** Both parented create tools, called the same way. */
type Call = [tool: string, args: Record<string, unknown>];
const PARENTED: ((parentTaskId: string, title: string) => Call)[] = [
  (parentTaskId, title) => ['create_subtask', { parentTaskId, title }],
  (parentTaskId, title) => ['create_task', { parentTaskId, title }],
];

describe('parent checks', () => {
  for (const make of PARENTED) {
    const [tool] = make('', '');
    it(`${tool}: unknown or dropped parent → parent not found with parent_not_found`, async () => {
      const { client, core } = await sessions.open();
      const dropped = await callOk<Task>(client, 'create_task', { title: 'dropped' });
      await core.board.dropTask(dropped.id);
      for (const id of ['no-such-parent', dropped.id]) {
        const err = await callErr(client, ...make(id, 'orphan'));
        expect(err.text).toBe(`parent not found: ${id}`);
        expect(err.meta).toEqual({ denied: { reason: 'parent_not_found' } });
      }
      expect(await count(client)).toBe(0);
    });

    it(`${tool}: empty parentTaskId is invalid args, never a root task`, async () => {
      const { client } = await sessions.open();
      const message = await callInvalid(client, ...make('', 'x'));
      expect(message).toContain('invalid args');
      expect(message).toContain('parentTaskId');
      expect(await count(client)).toBe(0);
    });
  }
});

describe('depth cap', () => {
  for (const make of PARENTED) {
    const [tool] = make('', '');
    it(`${tool}: allows root → child → grandchild and refuses a fourth level`, async () => {
      const { client } = await sessions.open();
      const root = await callOk<Task>(client, 'create_task', { title: 'root' });
      const child = await callOk<Task>(client, ...make(root.id, 'child'));
      const grandchild = await callOk<Task>(client, ...make(child.id, 'grandchild'));
      expect([root.depth, child.depth, grandchild.depth]).toEqual([0, 1, 2]);
      const err = await callErr(client, ...make(grandchild.id, 'too deep'));
      expect(err.text).toBe(DEPTH_CAP);
      expect(err.meta).toEqual({ denied: { reason: 'depth_cap' } });
      expect(await count(client)).toBe(3);
    });
  }

  it('counts depth of rows created through the uncapped surface', async () => {
    const { client, core } = await sessions.open();
    const root = await core.board.createTask({ title: 'root' });
    const child = await core.board.createTask({ title: 'child', parentTaskId: root.id });
    const grandchild = await core.board.createTask({ title: 'gc', parentTaskId: child.id });
    const err = await callErr(client, 'create_subtask', {
      parentTaskId: grandchild.id,
      title: 'x',
    });
    expect(err.text).toBe(DEPTH_CAP);
  });
});

describe('child cap', () => {
  async function fullParent() {
    const session = await sessions.open();
    const parent = await callOk<Task>(session.client, 'create_task', { title: 'parent' });
    const children: Task[] = [];
    for (let i = 0; i < 24; i++) {
      const [tool, args] = PARENTED[i % 2]!(parent.id, `child ${i}`);
      children.push(await callOk<Task>(session.client, tool, args));
    }
    return { ...session, parent, children };
  }

  it('refuses the 25th child on both tools with child_cap', async () => {
    const { client, parent } = await fullParent();
    for (const make of PARENTED) {
      const err = await callErr(client, ...make(parent.id, 'one too many'));
      expect(err.text).toBe(CHILD_CAP);
      expect(err.meta).toEqual({ denied: { reason: 'child_cap' } });
    }
    expect(await count(client)).toBe(25);
  });

  it('keeps counting done and cancelled children; a dropped child frees one slot', async () => {
    const { client, core, parent, children } = await fullParent();
    const [first, second, third] = children;
    if (first === undefined || second === undefined || third === undefined)
      throw new Error('setup');
    await callOk(client, 'update_task_status', { taskId: first.id, status: 'cancelled' });
    await callOk(client, 'claim_task', { taskId: second.id, assigneeAgentId: 'a' });
    await callOk(client, 'update_task_status', { taskId: second.id, status: 'done' });
    expect(
      (await callErr(client, 'create_subtask', { parentTaskId: parent.id, title: 'x' })).text,
    ).toBe(CHILD_CAP);
    await core.board.dropTask(third.id);
    const replacement = await callOk<Task>(client, 'create_subtask', {
      parentTaskId: parent.id,
      title: 'replacement',
    });
    expect(replacement.parentTaskId).toBe(parent.id);
    const again = await callErr(client, 'create_subtask', { parentTaskId: parent.id, title: 'y' });
    expect(again.text).toBe(CHILD_CAP);
  });

  it('counts children created through the uncapped surface', async () => {
    const { client, core } = await sessions.open();
    const parent = await core.board.createTask({ title: 'parent' });
    for (let i = 0; i < 30; i++) {
      await core.board.createTask({ title: `c${i}`, parentTaskId: parent.id });
    }
    const err = await callErr(client, 'create_subtask', { parentTaskId: parent.id, title: 'x' });
    expect(err.text).toBe(
      'subtask rejected: parent already has 30 children (max 24); drop one or attach the new task elsewhere',
    );
  });
});

describe('root rate cap', () => {
  it('allows 30 roots per rolling 5 minutes, then refuses with root_rate_cap', async () => {
    const clock = fakeClock();
    const { client } = await sessions.open({ clock: clock.now });
    const first = await callOk<Task>(client, 'create_task', { title: 'root 0' });
    clock.advance(60_000);
    for (let i = 1; i < 30; i++) await callOk(client, 'create_task', { title: `root ${i}` });
    const err = await callErr(client, 'create_task', { title: 'root 30' });
    expect(err.text).toMatch(ROOT_CAP);
    expect(err.meta).toEqual({ denied: { reason: 'root_rate_cap' } });
    expect(await count(client)).toBe(30);

    const sub = await callOk<Task>(client, 'create_subtask', {
      parentTaskId: first.id,
      title: 's',
    });
    const sub2 = await callOk<Task>(client, 'create_task', { parentTaskId: first.id, title: 's2' });
    expect([sub.depth, sub2.depth]).toEqual([1, 1]);

    clock.advance(4 * 60_000 - 1);
    expect((await callErr(client, 'create_task', { title: 'still early' })).text).toMatch(ROOT_CAP);
    clock.advance(1);
    await callOk(client, 'create_task', { title: 'root 0 rolled out' });
    expect((await callErr(client, 'create_task', { title: 'full again' })).text).toMatch(ROOT_CAP);
    clock.advance(60_000);
    await callOk(client, 'create_task', { title: 'window rolled' });
  });

  it('counts roots created through the uncapped board.createTask, and does not cap them', async () => {
    const clock = fakeClock();
    const { client, core } = await sessions.open({ clock: clock.now });
    for (let i = 0; i < 29; i++) await core.board.createTask({ title: `rest ${i}` });
    await callOk(client, 'create_task', { title: 'mcp 29' });
    expect((await callErr(client, 'create_task', { title: 'mcp 30' })).text).toMatch(ROOT_CAP);
    await expect(core.board.createTask({ title: 'rest 30' })).resolves.toMatchObject({ depth: 0 });
    expect(await count(client)).toBe(31);
  });

  it('counts dropped roots: completing or dropping does not launder the rate', async () => {
    const clock = fakeClock();
    const { client, core } = await sessions.open({ clock: clock.now });
    for (let i = 0; i < 30; i++) {
      const task = await callOk<Task>(client, 'create_task', { title: `r${i}`, status: 'done' });
      if (i % 2 === 0) await core.board.dropTask(task.id);
    }
    expect((await callErr(client, 'create_task', { title: 'x' })).text).toMatch(ROOT_CAP);
  });
});
