// `npm run bench -- postgres`: the tasks and memory workloads on SQLite and PostgreSQL in one
// run (ratios), then 1–3 `cairn serve` replicas on one PostgreSQL vs the SQLite single process.
// Starts its own throwaway cluster unless CAIRN_BENCH_PG_URL names a server; always stops it.
// Writes bench/results/postgres.json and the `postgres` section of docs/benchmarks.md.
import { startBenchPostgres } from '../lib/postgres.js';
import { machineInfo, writeDocSection, writeResult } from '../lib/report.js';
import { createWorkspace, seedTemplate, type Template, type Workspace } from '../tasks/fixture.js';
import type { Transport } from '../tasks/throughput.js';
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
};
const TASK_CELLS: [Transport, number][] = [
  ['http', 1],
  ['http', 16],
];
const REPLICAS = list('REPLICAS', '1,2,3', '1,3');
const CLIENTS = list('CLIENTS', '16,32,64', '16');

const log = (line: string): void => void process.stderr.write(`[bench:postgres] ${line}\n`);

interface Side {
  tasks: BackendCell[];
  memory: MemoryResult;
  replicas: ReplicaCell[];
}

/** Every measurement of one backend, on `ws` (SQLite files, or the bench PostgreSQL). */
async function measureBackend(backend: Backend, ws: Workspace): Promise<Side> {
  log(`${backend}: seeding ${CONFIG.listTasks} board + ${CONFIG.poolTasks} pool tasks…`);
  const template: Template = await seedTemplate(ws, 'template', CONFIG);
  const tasks = await measureTasks(backend, ws, template, TASK_CELLS, CONFIG, log);
  log(`${backend}: memory × ${CONFIG.memorySaves} saves…`);
  const memory = await measureMemory(backend, ws, {
    saves: CONFIG.memorySaves,
    searches: CONFIG.memorySearches,
    windowMs: CONFIG.memoryWindowMs,
  });
  const replicas: ReplicaCell[] = [];
  const counts = backend === 'sqlite' ? [1] : REPLICAS;
  for (const reps of counts) {
    for (const clients of CLIENTS) {
      const cfg = {
        windowMs: CONFIG.replicaWindowMs,
        maxClaims: CONFIG.poolTasks,
        maxPosts: CONFIG.maxPosts,
      };
      const cell = await measureReplicaCell(
        backend,
        ws,
        template,
        { replicas: reps, clients },
        cfg,
      );
      log(
        `  ${backend} ${reps} replica(s) × ${clients} clients: ${cell.claims.rate} claims/s (once: ${cell.claims.exactlyOnce}) · ${cell.posts.rate} posts/s (gap-free: ${cell.posts.gapFree})`,
      );
      replicas.push(cell);
    }
  }
  return { tasks, memory, replicas };
}

/** Runs the postgres bench end to end. Never fails on a slow figure; it reports it. */
export async function runPostgresBench(): Promise<void> {
  const machine = machineInfo();
  const pg = await startBenchPostgres();
  log(`PostgreSQL: ${pg.source}`);
  try {
    const sides: Side[] = [];
    for (const backend of ['sqlite', 'postgres'] as const) {
      const ws = createWorkspace(backend === 'postgres' ? pg : undefined);
      try {
        sides.push(await measureBackend(backend, ws));
      } finally {
        ws.cleanup();
      }
    }
    const report: PostgresReport = {
      bench: 'postgres',
      machine,
      pgSource: pg.source,
      config: { ...CONFIG, replicas: REPLICAS.join(','), clients: CLIENTS.join(',') },
      tasks: sides.flatMap((s) => s.tasks),
      memory: sides.map((s) => s.memory),
      replicas: sides.flatMap((s) => s.replicas),
    };
    const markdown = renderPostgres(report);
    const path = writeResult(QUICK ? 'postgres-quick' : 'postgres', report);
    if (!QUICK) await writeDocSection('postgres', markdown);
    process.stdout.write(
      `${markdown}\n\nWrote ${path}${QUICK ? '' : ' and docs/benchmarks.md'}.\n`,
    );
  } finally {
    await pg.stop();
  }
}
