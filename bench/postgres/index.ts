// `npm run bench -- postgres`: the tasks and memory workloads on SQLite and PostgreSQL in one
// run (ratios), then 1–3 `cairn serve` replicas on one PostgreSQL vs the SQLite single process.
// Starts its own throwaway cluster unless CAIRN_BENCH_PG_URL names a server; always stops it.
// Writes bench/results/postgres.json and the `postgres` section of docs/benchmarks.md.
import { startBenchPostgres } from '../lib/postgres.js';
import { machineInfo, writeDocSection, writeResult } from '../lib/report.js';
import { createWorkspace, seedTemplate, type Template, type Workspace } from '../tasks/fixture.js';
import type { Transport } from '../tasks/throughput.js';
import { type ApprovalCell, measureApprovalCell } from './approvals.js';
import {
  type Backend,
  type BackendCell,
  measureMemory,
  measureTasks,
  type MemoryResult,
} from './compare.js';
import { type PostgresReport, renderPostgres } from './render.js';
import { measureReplicaCell, type ReplicaCell } from './replicas.js';

const QUICK = process.env['CAIRN_BENCH_PG_QUICK'] === '1';

/** Env override of a number (CAIRN_BENCH_PG_<NAME>), for a shorter or longer run. */
const num = (name: string, full: number, quick: number): number => {
  const v = Number(process.env[`CAIRN_BENCH_PG_${name}`]);
  return Number.isFinite(v) && v > 0 ? v : QUICK ? quick : full;
};
const list = (name: string, full: string, quick: string): number[] =>
  (process.env[`CAIRN_BENCH_PG_${name}`] ?? (QUICK ? quick : full)).split(',').map(Number);

const CONFIG = {
  listTasks: 50,
  poolTasks: num('POOL', 5000, 1500),
  warmupMs: 500,
  rounds: num('ROUNDS', 3, 1),
  windowMs: num('WINDOW_MS', 1000, 500),
  maxCalls: 50_000,
  claimBudget: num('POOL', 5000, 1500),
  memorySaves: num('SAVES', 500, 100),
  memorySearches: 300,
  memoryWindowMs: 15_000,
  replicaWindowMs: num('REPLICA_WINDOW_MS', 4000, 1500),
  maxPosts: 20_000,
  approvalClients: num('APPROVAL_CLIENTS', 16, 16),
  approvalWindowMs: num('APPROVAL_WINDOW_MS', 4000, 1500),
  maxApprovals: num('APPROVAL_CALLS', 2000, 500),
  deciders: num('DECIDERS', 3, 3),
};
const TASK_CELLS: [Transport, number][] = [
  ['http', 1],
  ['http', 16],
];
const REPLICAS = list('REPLICAS', '1,2,3', '1,3');
const CLIENTS = list('CLIENTS', '16,32,64', '16');
/** Which parts run (CAIRN_BENCH_PG_PARTS, e.g. `approvals`); all by default. */
const PARTS = new Set(
  (process.env['CAIRN_BENCH_PG_PARTS'] ?? 'tasks,memory,replicas,approvals').split(','),
);

const log = (line: string): void => void process.stderr.write(`[bench:postgres] ${line}\n`);

interface Side {
  backend: Backend;
  ws: Workspace;
  template: Template;
}

/**
 * Every measurement, the two backends taking turns cell by cell (SQLite, then PostgreSQL with
 * 1, 2, 3 replicas), so a change in the shared machine's load lands on both alike.
 */
async function measureAll(
  sides: readonly Side[],
): Promise<Omit<PostgresReport, 'machine' | 'pgSource' | 'config' | 'bench'>> {
  const tasks: BackendCell[] = [];
  for (const cell of PARTS.has('tasks') ? TASK_CELLS : []) {
    for (const s of sides) {
      tasks.push(...(await measureTasks(s.backend, s.ws, s.template, [cell], CONFIG, log)));
    }
  }
  const memory: MemoryResult[] = [];
  for (const s of PARTS.has('memory') ? sides : []) {
    log(`${s.backend}: memory × ${CONFIG.memorySaves} saves…`);
    const cfg = {
      saves: CONFIG.memorySaves,
      searches: CONFIG.memorySearches,
      windowMs: CONFIG.memoryWindowMs,
    };
    memory.push(await measureMemory(s.backend, s.ws, cfg));
  }
  const replicas: ReplicaCell[] = [];
  const cfg = {
    windowMs: CONFIG.replicaWindowMs,
    maxClaims: CONFIG.poolTasks,
    maxPosts: CONFIG.maxPosts,
  };
  for (const clients of PARTS.has('replicas') ? CLIENTS : []) {
    for (const s of sides) {
      for (const reps of s.backend === 'sqlite' ? [1] : REPLICAS) {
        const cell = await measureReplicaCell(
          s.backend,
          s.ws,
          s.template,
          { replicas: reps, clients },
          cfg,
        );
        log(
          `  ${s.backend} ${reps} replica(s) × ${clients} clients: ${cell.claims.rate} claims/s (once: ${cell.claims.exactlyOnce}) · ${cell.posts.rate} posts/s (gap-free: ${cell.posts.gapFree})`,
        );
        replicas.push(cell);
      }
    }
  }
  return { tasks, memory, replicas, approvals: await measureApprovals(sides) };
}

/** The approvals cells: SQLite's one process, then 1–3 replicas on PostgreSQL, in turn. */
async function measureApprovals(sides: readonly Side[]): Promise<ApprovalCell[]> {
  const out: ApprovalCell[] = [];
  if (!PARTS.has('approvals')) return out;
  const clients = CONFIG.approvalClients;
  const cfg = {
    windowMs: CONFIG.approvalWindowMs,
    maxCalls: CONFIG.maxApprovals,
    deciders: CONFIG.deciders,
  };
  for (const s of sides) {
    for (const reps of s.backend === 'sqlite' ? [1] : REPLICAS) {
      const shape = { replicas: reps, clients };
      const cell = await measureApprovalCell(s.backend, s.ws, s.template, shape, cfg);
      const c = cell.calls;
      log(
        `  ${s.backend} ${reps} replica(s) × ${clients} clients × ${cfg.deciders} deciders: ${c.rate} approvals/s (once: ${c.exactlyOnce}, errors ${c.errors}) · rollbacks ${cell.rollbacks ?? '–'}`,
      );
      out.push(cell);
    }
  }
  return out;
}

/** Runs the postgres bench end to end. Never fails on a slow figure; it reports it. */
export async function runPostgresBench(): Promise<void> {
  const machine = machineInfo();
  const pg = await startBenchPostgres();
  log(`PostgreSQL: ${pg.source}`);
  try {
    const sides: Side[] = [];
    const workspaces: Workspace[] = [];
    let measured: Awaited<ReturnType<typeof measureAll>>;
    try {
      for (const backend of ['sqlite', 'postgres'] as const) {
        const ws = createWorkspace(backend === 'postgres' ? pg : undefined);
        workspaces.push(ws);
        log(`${backend}: seeding ${CONFIG.listTasks} board + ${CONFIG.poolTasks} pool tasks…`);
        sides.push({ backend, ws, template: await seedTemplate(ws, 'template', CONFIG) });
      }
      measured = await measureAll(sides);
    } finally {
      for (const ws of workspaces) ws.cleanup();
    }
    const report: PostgresReport = {
      bench: 'postgres',
      machine,
      pgSource: pg.source,
      config: { ...CONFIG, replicas: REPLICAS.join(','), clients: CLIENTS.join(',') },
      ...measured,
    };
    const markdown = renderPostgres(report);
    const whole = !QUICK && PARTS.size === 4;
    const name = QUICK ? 'postgres-quick' : whole ? 'postgres' : `postgres-${[...PARTS].join('-')}`;
    const path = writeResult(name, report);
    if (whole) await writeDocSection('postgres', markdown);
    process.stdout.write(
      `${markdown}\n\nWrote ${path}${whole ? ' and docs/benchmarks.md' : ''}.\n`,
    );
  } finally {
    await pg.stop();
  }
}
