// The circuit breaker: a caller that keeps earning policy denials for one tool is refused
// with `circuit_open` for a cool-down instead of looping. State lives in the database so every
// process sees the same circuit.
import { inList, type Queryable } from '../store/index.js';
import type { DeniedReason } from './types.js';

/** Denials that count toward opening the circuit: the caller's own policy violations. */
export const POLICY_DENIALS: readonly DeniedReason[] = [
  'injection',
  'blocked_caller',
  'arg_cap',
  'approval_denied',
];

export interface CircuitPolicy {
  threshold: number;
  windowMs: number;
  cooldownMs: number;
}

interface CircuitRow {
  open_until: number;
  counted_from: number;
}

const circuitOf = (q: Queryable, caller: string, tool: string): Promise<CircuitRow | undefined> =>
  q.get<CircuitRow>(
    'SELECT open_until, counted_from FROM tool_circuits WHERE caller = ? AND tool = ?',
    [caller, tool],
  );

/** When the circuit for caller + tool is open at `now`, the time it closes; otherwise null. */
export async function openUntil(
  q: Queryable,
  caller: string,
  tool: string,
  now: number,
): Promise<number | null> {
  const row = await circuitOf(q, caller, tool);
  return row !== undefined && row.open_until > now ? row.open_until : null;
}

/**
 * A circuit row: its table and the values of the two columns that key it. The broker keys its
 * circuits by caller + tool; the tasks server's refusal circuit (src/board/refusal-circuit.ts)
 * by caller + refusal reason.
 */
export type CircuitKey =
  | {
      table: 'tool_circuits';
      columns: readonly ['caller', 'tool'];
      values: readonly [string, string];
    }
  | {
      table: 'task_circuits';
      columns: readonly ['caller', 'reason'];
      values: readonly [string, string];
    };

/**
 * Opens the circuit `key` when `count(from)` (the offences since `from`) reaches the threshold,
 * `from` being the window's start or, when later, the end of the circuit's last cool-down:
 * offences that opened it once are not counted again. Run inside the write transaction that
 * recorded the offence. Returns the closing time when it opened the circuit, otherwise null.
 */
export async function tripWhenReached(
  tx: Queryable,
  key: CircuitKey,
  input: { now: number; policy: CircuitPolicy; count: (from: number) => Promise<number> },
): Promise<number | null> {
  const { now, policy } = input;
  const [a, b] = key.columns;
  const prior = await tx.get<{ counted_from: number }>(
    `SELECT counted_from FROM ${key.table} WHERE ${a} = ? AND ${b} = ?`,
    [...key.values],
  );
  const from = Math.max(now - policy.windowMs, prior?.counted_from ?? 0);
  if ((await input.count(from)) < policy.threshold) return null;
  const until = now + policy.cooldownMs;
  await tx.run(
    `INSERT INTO ${key.table} (${a}, ${b}, open_until, counted_from) VALUES (?, ?, ?, ?)
     ON CONFLICT (${a}, ${b}) DO UPDATE SET open_until = excluded.open_until,
       counted_from = excluded.counted_from`,
    [...key.values, until, until],
  );
  return until;
}

/**
 * Counts the caller's recent policy denials for the tool (the one just audited included) and
 * opens the circuit when they reach the threshold (see tripWhenReached).
 */
export function tripIfNeeded(
  tx: Queryable,
  input: { caller: string; tool: string; now: number; policy: CircuitPolicy },
): Promise<number | null> {
  const { caller, tool, now, policy } = input;
  const key = {
    table: 'tool_circuits',
    columns: ['caller', 'tool'],
    values: [caller, tool],
  } as const;
  return tripWhenReached(tx, key, {
    now,
    policy,
    count: async (from) =>
      (
        await tx.get<{ n: number }>(
          `SELECT COUNT(*) AS n FROM audit_log
           WHERE caller = ? AND tool = ? AND step = 'result' AND outcome = 'denied'
             AND reason IN ${inList(POLICY_DENIALS.length)} AND at >= ?`,
          [caller, tool, ...POLICY_DENIALS, from],
        )
      )?.n ?? 0,
  });
}
