// Unit tests of the tasks refusal circuit over a fresh in-memory store and a hand-moved clock:
// the Nth same-reason refusal opens it, while open every create is refused before it runs,
// the cool-down closes it, and nothing but the four cap refusals is counted.
import { afterEach, describe, expect, it } from 'vitest';

import { ConflictError, NotFoundError, PolicyError } from '../shared/errors.js';
import { openSqliteStore, type Queryable, type Store } from '../store/index.js';
import { createBoard } from './board.js';
import { childCap, depthCap, parentNotFound, rootRateCap } from './errors.js';
import { DEFAULT_LIMITS } from './model.js';
import { callerKey, createRefusalCircuit, type RefusalCircuitPolicy } from './refusal-circuit.js';

const POLICY: RefusalCircuitPolicy = { threshold: 3, windowMs: 60_000, cooldownMs: 30_000 };
const T0 = Date.UTC(2030, 0, 1);

const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function open(policy = POLICY) {
  const store = await openSqliteStore(':memory:');
  stores.push(store);
  const clock = { t: T0 };
  const circuit = createRefusalCircuit(store, { policy, clock: () => clock.t });
  let created = 0;
  const ok = async (): Promise<string> => `task ${++created}`;
  const refuse = (err: Error) => (): Promise<string> => Promise.reject(err);
  /** Runs one guarded create; returns the value or the thrown error. */
  const attempt = (caller: string, create: () => Promise<string>) =>
    circuit.guard(caller, create).catch((e: unknown) => e);
  return { store, clock, circuit, ok, refuse, attempt, created: () => created };
}

const CHILD = childCap(24, DEFAULT_LIMITS);
const DEPTH = depthCap(DEFAULT_LIMITS);

describe('refusal circuit', () => {
  it('opens on the Nth same-reason refusal, which itself is still the cap refusal', async () => {
    const { circuit, refuse, attempt } = await open();
    for (let i = 0; i < 3; i++) expect(await attempt('agent:a', refuse(CHILD))).toBe(CHILD);
    const opened = await circuit.openFor('agent:a');
    expect(opened).toEqual({ reason: 'child_cap', until: T0 + 30_000 });
  });

  it('while open refuses every create with circuit_open before running it', async () => {
    const { ok, refuse, attempt, created } = await open();
    for (let i = 0; i < 3; i++) await attempt('agent:a', refuse(CHILD));
    const err = await attempt('agent:a', ok);
    expect(err).toBeInstanceOf(PolicyError);
    expect((err as PolicyError).denied).toBe('circuit_open');
    expect((err as Error).message).toBe(
      `task rejected: repeated child_cap refusals (3 in 1 min); task creation paused for this caller until ${new Date(T0 + 30_000).toISOString()}`,
    );
    expect(created()).toBe(0);
  });

  it('counts each reason on its own and each caller on its own', async () => {
    const { circuit, refuse, attempt, ok } = await open();
    await attempt('agent:a', refuse(CHILD));
    await attempt('agent:a', refuse(CHILD));
    await attempt('agent:a', refuse(DEPTH));
    await attempt('agent:a', refuse(DEPTH));
    await attempt('agent:b', refuse(CHILD));
    expect(await circuit.openFor('agent:a')).toBeNull();
    await attempt('agent:a', refuse(DEPTH));
    expect(await circuit.openFor('agent:a')).toMatchObject({ reason: 'depth_cap' });
    expect(await circuit.openFor('agent:b')).toBeNull();
    expect(await attempt('agent:b', ok)).toBe('task 1');
  });

  it('counts all four cap reasons', async () => {
    const { circuit, refuse, attempt } = await open({ ...POLICY, threshold: 1 });
    const walls = [CHILD, DEPTH, rootRateCap(30, DEFAULT_LIMITS), parentNotFound('p')];
    for (const [i, wall] of walls.entries()) {
      await attempt(`agent:${i}`, refuse(wall));
      expect((await circuit.openFor(`agent:${i}`))?.reason).toBe(wall.denied);
    }
  });

  it('passes other errors through without counting them', async () => {
    const { circuit, refuse, attempt } = await open({ ...POLICY, threshold: 1 });
    const others = [new NotFoundError('not found: x'), new ConflictError('c'), new Error('boom')];
    for (const err of others) expect(await attempt('agent:a', refuse(err))).toBe(err);
    expect(await circuit.openFor('agent:a')).toBeNull();
  });

  it('forgets refusals older than the window; successes do not reset the count', async () => {
    const { circuit, clock, refuse, attempt, ok } = await open();
    await attempt('agent:a', refuse(CHILD));
    clock.t += 60_001;
    await attempt('agent:a', refuse(CHILD));
    await attempt('agent:a', ok);
    await attempt('agent:a', refuse(CHILD));
    expect(await circuit.openFor('agent:a')).toBeNull();
    await attempt('agent:a', refuse(CHILD));
    expect(await circuit.openFor('agent:a')).not.toBeNull();
  });

  it('closes after the cool-down and does not count refusals from before it again', async () => {
    const { circuit, clock, refuse, attempt, ok } = await open();
    for (let i = 0; i < 3; i++) await attempt('agent:a', refuse(CHILD));
    clock.t += 30_000 - 1;
    expect(await circuit.openFor('agent:a')).not.toBeNull();
    clock.t += 1;
    expect(await circuit.openFor('agent:a')).toBeNull();
    expect(await attempt('agent:a', ok)).toBe('task 1');
    // Still inside the window of the first three, but they were already spent.
    await attempt('agent:a', refuse(CHILD));
    await attempt('agent:a', refuse(CHILD));
    expect(await circuit.openFor('agent:a')).toBeNull();
    await attempt('agent:a', refuse(CHILD));
    expect(await circuit.openFor('agent:a')).toEqual({
      reason: 'child_cap',
      until: clock.t + 30_000,
    });
  });

  it('prunes refusals and closed circuits no window can reach', async () => {
    const { store, clock, refuse, attempt } = await open();
    for (let i = 0; i < 3; i++) await attempt('agent:a', refuse(CHILD));
    clock.t += 30_000 + 60_001;
    await attempt('agent:b', refuse(DEPTH));
    const rows = await store.all<{ caller: string }>('SELECT caller FROM task_refusals');
    expect(rows).toEqual([{ caller: 'agent:b' }]);
    expect(await store.all('SELECT * FROM task_circuits')).toEqual([]);
  });

  it('stores a huge caller id as a fixed-size hash, still per caller', async () => {
    const { store, circuit, refuse, attempt, ok } = await open();
    const huge = `agent:${'\u0000💥'.repeat(100_000)}`;
    for (let i = 0; i < 3; i++) await attempt(huge, refuse(CHILD));
    expect((await circuit.openFor(huge))?.reason).toBe('child_cap');
    const [row] = await store.all<{ caller: string }>('SELECT caller FROM task_circuits');
    expect(row?.caller).toBe(callerKey(huge));
    expect(row?.caller).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await attempt(`${huge}x`, ok)).toBe('task 1');
  });

  it("checks the circuit inside the create's own write transaction, before the insert", async () => {
    const store = await openSqliteStore(':memory:');
    stores.push(store);
    let writes = 0;
    const log: Array<{ sql: string; write: number | null }> = [];
    const record = (q: Queryable, write: number | null): Queryable => ({
      dialect: q.dialect,
      all: (sql, params) => (log.push({ sql, write }), q.all(sql, params)),
      get: (sql, params) => (log.push({ sql, write }), q.get(sql, params)),
      run: (sql, params) => (log.push({ sql, write }), q.run(sql, params)),
    });
    const watched: Store = {
      ...store,
      ...record(store, null),
      write: (fn) => store.write((tx) => fn(record(tx, ++writes))),
      read: (fn) => store.read((tx) => fn(record(tx, null))),
    };
    const circuit = createRefusalCircuit(watched, { policy: POLICY, clock: () => T0 });
    const board = createBoard(watched, { clock: () => T0 });
    await circuit.guard('agent:a', (tx) => board.createCappedTaskIn(tx, { title: 'x' }));
    const check = log.find((l) => /FROM task_circuits/.test(l.sql));
    const insert = log.find((l) => /INSERT INTO tasks/.test(l.sql));
    expect(check?.write).not.toBeNull();
    expect(insert?.write).toBe(check?.write);
    expect(log.indexOf(check ?? log[0]!)).toBeLessThan(log.indexOf(insert ?? log[0]!));
    // Once open, the create is refused inside that transaction and nothing is inserted.
    for (let i = 0; i < 3; i++) await circuit.record('agent:a', 'child_cap');
    const refused = await circuit
      .guard('agent:a', (tx) => board.createCappedTaskIn(tx, { title: 'y' }))
      .catch((e: unknown) => e);
    expect((refused as PolicyError).denied).toBe('circuit_open');
    expect(await store.all('SELECT title FROM tasks')).toEqual([{ title: 'x' }]);
  });
});
