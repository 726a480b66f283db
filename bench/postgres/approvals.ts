// Approvals under contention: N tools-server clients (pinned over 1–3 `cairn serve` replicas)
// each loop on delete_path, which waits for a human; as soon as a call reports its approval id,
// several deciders race to decide it over REST, each through another replica. One decision must
// win (200), the others get the spec'd 409 `already allowed`; the call is released once. Checked
// in the database afterwards: each approval decided once, by the decider that got the 200.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import pino from 'pino';

import { createCore } from '../../src/core/index.js';
import { type BenchClient, callTool, closeAll, type ChildServer } from '../lib/connect.js';
import { type Measurement, runWindow, summarise } from '../lib/measure.js';
import { coreDb, type Template, type Workspace } from '../tasks/fixture.js';
import type { Backend } from './compare.js';
import { at, cellRollbacks, pinned, startReplicas } from './replicas.js';

export interface ApprovalBenchConfig {
  windowMs: number;
  /** Gated calls per cell at most. */
  maxCalls: number;
  /** Deciders racing on each approval. */
  deciders: number;
}

export interface ApprovalCell {
  backend: Backend;
  replicas: number;
  clients: number;
  deciders: number;
  /** Gated delete_path calls, each released by exactly one of the racing decisions. */
  calls: Measurement & { exactlyOnce: boolean };
  /** Decider answers: the one 200 per approval, the 409s of the others, anything else. */
  answers: { won: number; refused: number; other: number };
  /** PostgreSQL only: transactions the cell's database rolled back (serialization retries). */
  rollbacks?: number;
}

/** The servers' settings: no circuit to trip, a first progress report at once. */
const APPROVAL_ENV = { CAIRN_CIRCUIT_THRESHOLD: '1000000', CAIRN_APPROVAL_PROGRESS_MS: '60000' };
const APPROVAL_ID = /decide approval (\S+)/;

interface Race {
  /** HTTP statuses of the deciders, in decider order. */
  statuses: number[];
  /** decidedBy of the decider that got the 200, if exactly one did. */
  winner: string | undefined;
}

/** `deciders` POSTs of allow_once on approval `id`, decider k through replica (w + k) mod n. */
async function race(servers: readonly ChildServer[], w: number, id: string, deciders: number) {
  const statuses = await Promise.all(
    Array.from({ length: deciders }, async (_, k) => {
      const server = servers[(w + k) % servers.length];
      if (server === undefined) throw new Error('no replica');
      const res = await fetch(`${server.url}/api/approvals/${encodeURIComponent(id)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'allow_once', decidedBy: `decider-${k}` }),
        signal: AbortSignal.timeout(60_000),
      });
      await res.text();
      return res.status;
    }),
  );
  const won = statuses.flatMap((s, k) => (s === 200 ? [`decider-${k}`] : []));
  return { statuses, winner: won.length === 1 ? won[0] : undefined } satisfies Race;
}

/** One gated call and the race it starts; resolves with the approval id and the race. */
async function gatedCall(
  clients: readonly BenchClient[],
  servers: readonly ChildServer[],
  w: number,
  deciders: number,
) {
  let raced: Promise<Race> | undefined;
  let approvalId: string | undefined;
  const result = (await at(clients, w).callTool(
    { name: 'delete_path', arguments: { path: `/tmp/cairn-bench-approval-${w}` } },
    undefined,
    {
      timeout: 60_000,
      onprogress: (p) => {
        const id = APPROVAL_ID.exec(p.message ?? '')?.[1];
        if (id === undefined || raced !== undefined) return;
        approvalId = id;
        raced = race(servers, w, id, deciders);
      },
    },
  )) as CallToolResult;
  const settled = raced === undefined ? undefined : await raced;
  return { ok: result.isError !== true, approvalId, race: settled };
}

/** Checks in the database: every approval decided once, by the decider that was told so. */
async function verify(db: string, winners: ReadonlyMap<string, string>) {
  const core = await createCore({ ...coreDb(db), logger: pino({ level: 'silent' }) });
  try {
    const rows = await core.store.all<{ id: string; status: string; by: string | null; n: number }>(
      `SELECT a.id, a.status, a.decided_by AS by, COUNT(l.id) AS n
       FROM tool_approvals a LEFT JOIN audit_log l ON l.call_id = a.call_id AND l.step = 'decision'
       GROUP BY a.id, a.status, a.decided_by`,
    );
    const acked = rows.filter((r) => winners.has(r.id));
    const exactlyOnce =
      acked.length === winners.size &&
      acked.every((r) => r.status === 'allowed' && Number(r.n) === 1 && r.by === winners.get(r.id));
    return { exactlyOnce, rollbacks: await cellRollbacks(core.store, db) };
  } finally {
    await core.close();
  }
}

/** One cell: `replicas` servers on a fresh copy of `template`, `clients` looping gated calls. */
export async function measureApprovalCell(
  backend: Backend,
  ws: Workspace,
  template: Template,
  shape: { replicas: number; clients: number },
  cfg: ApprovalBenchConfig,
): Promise<ApprovalCell> {
  const db = await ws.copy(template, `appr_r${shape.replicas}_c${shape.clients}`);
  const servers = await startReplicas(ws, db, shape.replicas, APPROVAL_ENV);
  const winners = new Map<string, string>();
  const answers = { won: 0, refused: 0, other: 0 };
  let samples: Awaited<ReturnType<typeof runWindow>>;
  let clients: BenchClient[] = [];
  try {
    clients = await pinned(servers, 'tools', shape.clients);
    await callTool(at(clients, 0), 'echo', { message: 'warm' });
    samples = await runWindow(
      async (w) => {
        const call = await gatedCall(clients, servers, w, cfg.deciders);
        for (const s of call.race?.statuses ?? []) {
          if (s === 200) answers.won++;
          else if (s === 409) answers.refused++;
          else answers.other++;
        }
        const once = call.race?.winner !== undefined && call.approvalId !== undefined;
        if (once) winners.set(call.approvalId ?? '', call.race?.winner ?? '');
        return call.ok && once && call.race?.statuses.every((s) => s === 200 || s === 409) === true;
      },
      { workers: shape.clients, ms: cfg.windowMs, maxCalls: cfg.maxCalls },
    );
  } finally {
    await closeAll(clients);
    await Promise.all(servers.map((s) => s.stop()));
  }
  const checks = await verify(db, winners);
  return {
    backend,
    ...shape,
    deciders: cfg.deciders,
    calls: { ...summarise(samples), exactlyOnce: checks.exactlyOnce },
    answers,
    ...(checks.rollbacks === undefined ? {} : { rollbacks: checks.rollbacks }),
  };
}

/**
 * Retried transactions (serialization failures, deadlocks) per acknowledged gated call: the
 * database's rollbacks less the deciders' refusals, each of which rolls back its own write
 * (the 409 is thrown inside it).
 */
export function approvalRetriesPerCall(c: ApprovalCell): number {
  const retried = Math.max(0, (c.rollbacks ?? 0) - c.answers.refused);
  return retried / Math.max(1, c.calls.calls - c.calls.errors);
}
