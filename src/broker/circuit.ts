// The circuit breaker: a caller that keeps earning policy denials for one tool is refused
// with `circuit_open` for a cool-down instead of looping. State lives in the database so every
// process sees the same circuit.
import type { Queryable } from '../store/index.js';
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
 * Counts the caller's recent policy denials for the tool (the one just audited included) and
 * opens the circuit when they reach the threshold. Denials before a past opening's cool-down
 * ended are not counted again. Returns the closing time when it opened the circuit.
 */
export async function tripIfNeeded(
  tx: Queryable,
  input: { caller: string; tool: string; now: number; policy: CircuitPolicy },
): Promise<number | null> {
  const { caller, tool, now, policy } = input;
  const from = Math.max(
    now - policy.windowMs,
    (await circuitOf(tx, caller, tool))?.counted_from ?? 0,
  );
  const marks = POLICY_DENIALS.map(() => '?').join(', ');
  const row = await tx.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM audit_log
     WHERE caller = ? AND tool = ? AND step = 'result' AND outcome = 'denied'
       AND reason IN (${marks}) AND at >= ?`,
    [caller, tool, ...POLICY_DENIALS, from],
  );
  if ((row?.n ?? 0) < policy.threshold) return null;
  const until = now + policy.cooldownMs;
  await tx.run(
    `INSERT INTO tool_circuits (caller, tool, open_until, counted_from) VALUES (?, ?, ?, ?)
     ON CONFLICT (caller, tool) DO UPDATE SET open_until = excluded.open_until,
       counted_from = excluded.counted_from`,
    [caller, tool, until, until],
  );
  return until;
}
