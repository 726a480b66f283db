// The tasks refusal circuit: a caller that keeps hitting the same creation cap is paused for a
// cool-down instead of looping. Cap refusals never enter the governance audit log, so they are
// counted in their own table; all state lives in the database, so every process serving one
// agent shares it. Opening and cool-down are the broker's (tripWhenReached, src/broker/circuit.ts).
import { createHash } from 'node:crypto';

import { type CircuitPolicy, tripWhenReached } from '../broker/index.js';
import { DomainError, PolicyError } from '../shared/errors.js';
import type { Queryable, Store } from '../store/index.js';

/** The creation-cap refusals that count: the walls a looping agent keeps hitting. */
export const CAP_REFUSALS: readonly string[] = [
  'child_cap',
  'depth_cap',
  'root_rate_cap',
  'parent_not_found',
];

/** The broker's circuit settings (CAIRN_CIRCUIT_*): same-reason refusals in the window. */
export type RefusalCircuitPolicy = CircuitPolicy;

export interface RefusalCircuitOptions {
  policy: RefusalCircuitPolicy;
  /** Milliseconds since the epoch; injectable for tests. */
  clock?: (() => number) | undefined;
}

/** An open circuit: the refusal reason that tripped it and when it closes. */
export interface OpenCircuit {
  reason: string;
  until: number;
}

/** Caller keys longer than this are stored as a hash, so a huge id cannot bloat the tables. */
const MAX_CALLER_KEY = 200;

/** The stored key for a caller: itself when short, `sha256:<hex>` of it otherwise. */
export function callerKey(caller: string): string {
  if (caller.length <= MAX_CALLER_KEY) return caller;
  return `sha256:${createHash('sha256').update(caller, 'utf8').digest('hex')}`;
}

/** The cap reason of a thrown board refusal, or undefined when it is not one that counts. */
export function capRefusalOf(err: unknown): string | undefined {
  if (!(err instanceof DomainError) || err.denied === undefined) return undefined;
  return CAP_REFUSALS.includes(err.denied) ? err.denied : undefined;
}

function span(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** The refusal a caller gets while its circuit is open (`_meta.denied.reason` circuit_open). */
export const circuitOpen = (open: OpenCircuit, policy: RefusalCircuitPolicy): PolicyError =>
  new PolicyError(
    `task rejected: repeated ${open.reason} refusals (${policy.threshold} in ${span(policy.windowMs)}); task creation paused for this caller until ${new Date(open.until).toISOString()}`,
    'circuit_open',
  );

/** The caller's circuit (any reason) open at `now`, latest closing first; null when none is. */
export async function findOpenCircuit(
  q: Queryable,
  caller: string,
  now: number,
): Promise<OpenCircuit | null> {
  const row = await q.get<{ reason: string; open_until: number }>(
    `SELECT reason, open_until FROM task_circuits WHERE caller = ? AND open_until > ?
     ORDER BY open_until DESC LIMIT 1`,
    [caller, now],
  );
  return row === undefined ? null : { reason: row.reason, until: row.open_until };
}

/**
 * Records one refusal and opens the circuit for caller + reason when the refusals in the window
 * (this one included) reach the threshold. Refusals before a past opening's cool-down ended are
 * not counted again. Run it inside one write transaction so counting and opening are atomic
 * across processes. Returns the closing time when it opened the circuit, otherwise null.
 */
export async function recordRefusal(
  tx: Queryable,
  input: { caller: string; reason: string; now: number; policy: RefusalCircuitPolicy },
): Promise<number | null> {
  const { caller, reason, now, policy } = input;
  const horizon = now - policy.windowMs;
  // Rows no window can reach any more: old refusals, and circuits closed before the window.
  await tx.run('DELETE FROM task_refusals WHERE at < ?', [horizon]);
  await tx.run('DELETE FROM task_circuits WHERE counted_from < ?', [horizon]);
  await tx.run('INSERT INTO task_refusals (caller, reason, at) VALUES (?, ?, ?)', [
    caller,
    reason,
    now,
  ]);
  return tripWhenReached(
    tx,
    { table: 'task_circuits', columns: ['caller', 'reason'], values: [caller, reason] },
    {
      now,
      policy,
      count: async (from) =>
        (
          await tx.get<{ n: number }>(
            'SELECT COUNT(*) AS n FROM task_refusals WHERE caller = ? AND reason = ? AND at >= ?',
            [caller, reason, from],
          )
        )?.n ?? 0,
    },
  );
}

export type RefusalCircuit = ReturnType<typeof createRefusalCircuit>;

/** Builds the refusal circuit over a store. Holds no state of its own. */
export function createRefusalCircuit(store: Store, options: RefusalCircuitOptions) {
  const { policy } = options;
  const clock = options.clock ?? Date.now;

  /** Records a refusal for `caller`; returns the closing time when it opened the circuit. */
  const record = (caller: string, reason: string): Promise<number | null> =>
    store.write((tx) =>
      recordRefusal(tx, { caller: callerKey(caller), reason, now: clock(), policy }),
    );

  return {
    policy,
    record,

    /** The caller's open circuit, or null. */
    openFor: (caller: string): Promise<OpenCircuit | null> =>
      findOpenCircuit(store, callerKey(caller), clock()),

    /**
     * Runs one capped create for `caller` inside one write transaction that first checks the
     * caller's circuits: while one is open the create is refused before it runs, and a create
     * cannot land after a racing refusal (any process) opened it, since the check and the
     * insert commit together. A cap refusal `create` throws is counted, then rethrown.
     * @throws PolicyError (circuit_open), or whatever `create` throws.
     */
    async guard<T>(caller: string, create: (tx: Queryable) => Promise<T>): Promise<T> {
      const key = callerKey(caller);
      try {
        return await store.write(async (tx) => {
          const open = await findOpenCircuit(tx, key, clock());
          if (open !== null) throw circuitOpen(open, policy);
          return create(tx);
        });
      } catch (err) {
        const reason = capRefusalOf(err);
        if (reason !== undefined) await record(caller, reason);
        throw err;
      }
    },
  };
}
