// Claim contention: several stdio server processes on one database file, each client walking
// the same pool in its own shuffled order until the pool is drained (or a time cap). Conflicts
// are expected; anything else that fails a claim counts as a failure.
import { performance } from 'node:perf_hooks';

import { type BenchClient, callTool, closeAll, connectMany, connectStdio } from '../lib/connect.js';
import { quantile } from '../lib/measure.js';
import { cairnStdio, type Template, type Workspace } from './fixture.js';

export interface ContentionResult {
  processes: number;
  poolTasks: number;
  calls: number;
  claimed: number;
  conflicts: number;
  /** Calls that errored with anything but the `conflict` tool-error (target: 0). */
  failed: number;
  /** Tasks that more than one client was told it had claimed (must be 0). */
  doubleClaims: number;
  drained: boolean;
  seconds: number;
  claimsPerSecond: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: string[];
}

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

/** Runs the contention measurement on a fresh copy of `template`. */
export async function measureContention(
  ws: Workspace,
  template: Template,
  processes: number,
  timeCapMs: number,
): Promise<ContentionResult> {
  const db = await ws.copy(template, `contention-${processes}`);
  const clients: BenchClient[] = await connectMany(processes, () =>
    connectStdio(cairnStdio(ws, db)),
  );
  const winners = new Map<string, number>();
  const latencies: number[] = [];
  const failures: string[] = [];
  let conflicts = 0;
  let failed = 0;
  let doubleClaims = 0;
  const total = template.poolIds.length;
  const start = performance.now();
  const deadline = start + timeCapMs;

  const walk = async (worker: number, client: BenchClient['client']): Promise<void> => {
    for (const taskId of shuffled(template.poolIds)) {
      if (winners.size >= total || performance.now() >= deadline) return;
      const t0 = performance.now();
      try {
        const res = await callTool(client, 'claim_task', {
          taskId,
          assigneeAgentId: `contender-${worker}`,
        });
        if (!res.isError) {
          if (winners.has(taskId)) doubleClaims++;
          winners.set(taskId, worker);
        } else if (res.text.startsWith('conflict')) conflicts++;
        else {
          failed++;
          if (failures.length < 5) failures.push(res.text);
        }
      } catch (err) {
        failed++;
        if (failures.length < 5) failures.push((err as Error).message);
      }
      latencies.push(performance.now() - t0);
    }
  };

  let seconds: number;
  try {
    await Promise.all(clients.map((c, i) => walk(i, c.client)));
    seconds = (performance.now() - start) / 1000;
  } finally {
    await closeAll(clients);
  }
  const sorted = latencies.sort((a, b) => a - b);
  return {
    processes,
    poolTasks: total,
    calls: sorted.length,
    claimed: winners.size,
    conflicts,
    failed,
    doubleClaims,
    drained: winners.size === total,
    seconds: round(seconds, 3),
    claimsPerSecond: round(winners.size / seconds, 1),
    callsPerSecond: round(sorted.length / seconds, 1),
    p50Ms: round(quantile(sorted, 0.5), 3),
    p99Ms: round(quantile(sorted, 0.99), 3),
    failures,
  };
}
