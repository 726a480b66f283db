// The tasks refusal circuit through a real SDK client: the 5th same-reason cap refusal from one
// caller opens it, every create of that caller is then refused with `circuit_open` until the
// cool-down ends, other callers are unaffected, and none of it reaches the audit log.
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Task } from '../../src/board/index.js';
import type { Core } from '../../src/core/index.js';
import { callErr, callOk, fakeClock, tasksSessions } from '../helpers.js';

const sessions = tasksSessions();
afterEach(async () => {
  await sessions.closeAll();
  vi.unstubAllEnvs();
});

type Client = Awaited<ReturnType<typeof sessions.open>>['client'];

const OPEN_TEXT =
  /^task rejected: repeated (\w+) refusals \((\d+) in (\d+ (?:min|s|ms))\); task creation paused for this caller until (\S+)$/;
const NOT_FOUND = 'parent not found: no-such-parent';

/** One parent_not_found refusal, alternating the two create tools. */
async function hitWall(client: Client, i: number): Promise<void> {
  const tool = i % 2 === 0 ? 'create_subtask' : 'create_task';
  const err = await callErr(client, tool, { parentTaskId: 'no-such-parent', title: `x${i}` });
  expect(err.text).toBe(NOT_FOUND);
  expect(err.meta).toEqual({ denied: { reason: 'parent_not_found' } });
}

async function hitWallTimes(client: Client, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await hitWall(client, i);
}

/** Expects a circuit_open refusal; returns the reason it names and when it closes. */
async function expectOpen(
  client: Client,
  tool = 'create_task',
  args: Record<string, unknown> = { title: 'valid' },
) {
  const err = await callErr(client, tool, args);
  expect(err.meta).toEqual({ denied: { reason: 'circuit_open' } });
  const m = OPEN_TEXT.exec(err.text);
  if (m === null) throw new Error(`unexpected text: ${err.text}`);
  return { reason: m[1], count: Number(m[2]), window: m[3], until: Date.parse(m[4] ?? '') };
}

const taskCount = async (core: Core): Promise<number> =>
  (await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks'))?.n ?? -1;

describe('tasks refusal circuit', () => {
  it('the 5th same-reason refusal opens it; the next create, even a valid one, is refused', async () => {
    const { client, core } = await sessions.open({}, { scopeAgentId: 'looper' });
    const root = await callOk<Task>(client, 'create_task', { title: 'root' });
    await hitWallTimes(client, 4);
    await callOk(client, 'create_task', { title: 'a success does not reset the count' });
    const before = Date.now();
    await hitWall(client, 4);

    const open = await expectOpen(client);
    expect(open).toMatchObject({ reason: 'parent_not_found', count: 5, window: '10 min' });
    expect(open.until).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(open.until).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    await expectOpen(client, 'create_subtask', { parentTaskId: root.id, title: 'valid child' });
    await expectOpen(client, 'create_task', { parentTaskId: root.id, title: 'valid child' });
    expect(await taskCount(core)).toBe(2);
    // Only creation is paused: the rest of the board still answers.
    expect((await callOk<{ tasks: Task[] }>(client, 'list_tasks', {})).tasks).toHaveLength(2);
  });

  it('different walls are counted apart', async () => {
    const { client } = await sessions.open({}, { scopeAgentId: 'looper' });
    const root = await callOk<Task>(client, 'create_task', { title: 'root' });
    const child = await callOk<Task>(client, 'create_subtask', {
      parentTaskId: root.id,
      title: 'c',
    });
    const leaf = await callOk<Task>(client, 'create_subtask', {
      parentTaskId: child.id,
      title: 'l',
    });
    await hitWallTimes(client, 4);
    for (let i = 0; i < 4; i++) {
      const err = await callErr(client, 'create_subtask', { parentTaskId: leaf.id, title: 'deep' });
      expect(err.meta).toEqual({ denied: { reason: 'depth_cap' } });
    }
    await callOk(client, 'create_task', { title: 'still allowed' });
    await callErr(client, 'create_subtask', { parentTaskId: leaf.id, title: 'deep' });
    expect((await expectOpen(client)).reason).toBe('depth_cap');
  });

  it('trips on a looping root create at the root rate cap', async () => {
    const clock = fakeClock();
    const { client } = await sessions.open({ clock: clock.now }, { scopeAgentId: 'filer' });
    for (let i = 0; i < 30; i++) await callOk(client, 'create_task', { title: `root ${i}` });
    for (let i = 0; i < 5; i++) {
      const err = await callErr(client, 'create_task', { title: 'one more' });
      expect(err.meta).toEqual({ denied: { reason: 'root_rate_cap' } });
    }
    expect((await expectOpen(client)).reason).toBe('root_rate_cap');
  });

  it('pauses every session of the bound agent, and no other agent', async () => {
    const session = await sessions.open({}, { scopeAgentId: 'looper' });
    await hitWallTimes(session.client, 5);
    const again = await session.connect({ scopeAgentId: 'looper' });
    await expectOpen(again);
    const other = await session.connect({ scopeAgentId: 'bystander' });
    await callOk(other, 'create_task', { title: 'unaffected' });
    await hitWall(other, 0);
    await callOk(other, 'create_task', { title: 'still unaffected' });
  });

  it('counts an unbound session on its own connection only', async () => {
    const session = await sessions.open();
    await hitWallTimes(session.client, 5);
    await expectOpen(session.client);
    const fresh = await session.connect();
    await callOk(fresh, 'create_task', { title: 'a different unbound caller' });
    const bound = await session.connect({ scopeAgentId: 'looper' });
    await callOk(bound, 'create_task', { title: 'not the unbound one either' });
  });

  it('takes its settings from CAIRN_CIRCUIT_* and closes after the cool-down', async () => {
    vi.stubEnv('CAIRN_CIRCUIT_THRESHOLD', '2');
    vi.stubEnv('CAIRN_CIRCUIT_WINDOW_MS', '90000');
    vi.stubEnv('CAIRN_CIRCUIT_COOLDOWN_MS', '60000');
    // The core's clock drives the circuit: no real waiting (a loaded machine cannot race it).
    const clock = fakeClock();
    const { client } = await sessions.open({ clock: clock.now }, { scopeAgentId: 'looper' });
    await hitWallTimes(client, 2);
    const open = await expectOpen(client);
    expect(open).toMatchObject({ count: 2, window: '90 s', until: clock.now() + 60_000 });
    clock.advance(59_999);
    await expectOpen(client);
    clock.advance(1);
    await callOk(client, 'create_task', { title: 'after the cool-down' });
    // The two refusals that opened it are spent: one more does not reopen it.
    await hitWall(client, 0);
    await callOk(client, 'create_task', { title: 'still closed' });
    await hitWall(client, 1);
    await expectOpen(client);
  });

  it('writes refusals to its own table, never to the audit log', async () => {
    const { client, core } = await sessions.open({}, { scopeAgentId: 'looper' });
    await hitWallTimes(client, 5);
    await expectOpen(client);
    const audit = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM audit_log');
    expect(audit?.n).toBe(0);
    const refusals = await core.store.all<{ caller: string; reason: string }>(
      'SELECT caller, reason FROM task_refusals',
    );
    expect(refusals).toEqual(Array(5).fill({ caller: 'agent:looper', reason: 'parent_not_found' }));
  });

  it('survives a hostile bound agent id and keeps it apart from its prefixes', async () => {
    const hostile = `'); DROP TABLE task_circuits; --\u0000\u202e${'💥'.repeat(50_000)}`;
    const session = await sessions.open({}, { scopeAgentId: hostile });
    await hitWallTimes(session.client, 5);
    const open = await expectOpen(session.client);
    expect(open.reason).toBe('parent_not_found');
    const prefix = await session.connect({ scopeAgentId: hostile.slice(0, 200) });
    await callOk(prefix, 'create_task', { title: 'a different agent' });
    const rows = await session.core.store.all<{ caller: string }>(
      'SELECT caller FROM task_circuits',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.caller).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
