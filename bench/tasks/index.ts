// The tasks bench: Cairn's tasks server vs a bare SDK echo server over stdio and Streamable
// HTTP at 1 and 16 clients, then claim contention across stdio processes. Writes
// bench/results/tasks.json and the `tasks` section of docs/benchmarks.md.
import { machineInfo, writeDocSection, writeResult } from '../lib/report.js';
import { type BindingResult, measureBinding } from './binding.js';
import { measureContention } from './contention.js';
import { createWorkspace, seedTemplate } from './fixture.js';
import { renderTasks, type Target, type TasksReport } from './render.js';
import { type Cell, measureCell, type ThroughputConfig, type Transport } from './throughput.js';

const CONFIG = {
  listTasks: 50,
  poolTasks: 12_000,
  warmupMs: 500,
  rounds: 3,
  windowMs: 1000,
  maxCalls: 50_000,
  claimBudget: 12_000,
  contentionProcesses: 8,
  contentionPool: 2000,
  contentionCapMs: 15_000,
  bindingWarmup: 50,
  bindingRounds: 1000,
  bindingCapMs: 30_000,
} as const satisfies Record<string, number> & ThroughputConfig;

const HTTP_OVERHEAD_LIMIT = 1.3;
/** Our own limit: the binding adds one indexed inbox read per call (the spec sets none). */
const BINDING_LIMIT = 1.1;
const CELLS: readonly [Transport, number][] = [
  ['stdio', 1],
  ['stdio', 16],
  ['http', 1],
  ['http', 16],
];

function targetsFor(
  cells: readonly Cell[],
  report: TasksReport['contention'],
  binding: BindingResult,
): Target[] {
  const overhead = cells
    .filter((c) => c.transport === 'http')
    .flatMap((c) =>
      (['listTasks', 'claimTask'] as const).map((tool) => ({
        name: `HTTP overhead, ${tool === 'listTasks' ? 'list_tasks' : 'claim_task'}, ${c.clients} client${c.clients === 1 ? '' : 's'}`,
        limit: `≤ ${HTTP_OVERHEAD_LIMIT.toFixed(2)}×`,
        value: `${c.overhead[tool].toFixed(2)}×`,
        met: c.overhead[tool] <= HTTP_OVERHEAD_LIMIT,
      })),
    );
  return [
    ...overhead,
    {
      name: 'Bound session (--agent) list_tasks p50 vs unbound, nothing waiting',
      limit: `≤ ${BINDING_LIMIT.toFixed(2)}×`,
      value: `${binding.p50Ratio.toFixed(2)}×`,
      met: binding.p50Ratio <= BINDING_LIMIT,
    },
    {
      name: `Failed claims, ${report.processes} contending processes`,
      limit: '0',
      value: String(report.failed),
      met: report.failed === 0 && report.doubleClaims === 0,
    },
  ];
}

const log = (line: string): void => void process.stderr.write(`[bench:tasks] ${line}\n`);

/** Runs the tasks bench end to end. Never fails on a missed target; it reports it. */
export async function runTasksBench(): Promise<void> {
  const machine = machineInfo();
  const ws = createWorkspace();
  try {
    log(`seeding ${CONFIG.listTasks} board tasks + ${CONFIG.poolTasks} pool tasks`);
    const board = await seedTemplate(ws, 'template-board', {
      listTasks: CONFIG.listTasks,
      poolTasks: CONFIG.poolTasks,
    });
    const pool = await seedTemplate(ws, 'template-contention', {
      listTasks: 0,
      poolTasks: CONFIG.contentionPool,
    });
    const cells: Cell[] = [];
    for (const [transport, clients] of CELLS) {
      log(`${transport}, ${clients} client(s)…`);
      const cell = await measureCell(ws, board, CONFIG.listTasks, transport, clients, CONFIG);
      log(
        `  echo ${cell.echo.rate}/s · list_tasks ${cell.listTasks.rate}/s (${cell.overhead.listTasks}×) · claim_task ${cell.claimTask.rate}/s (${cell.overhead.claimTask}×)`,
      );
      cells.push(cell);
    }
    log(`contention: ${CONFIG.contentionProcesses} processes, ${CONFIG.contentionPool} tasks…`);
    const contention = await measureContention(
      ws,
      pool,
      CONFIG.contentionProcesses,
      CONFIG.contentionCapMs,
    );
    log(`binding: unbound vs --agent list_tasks, ${CONFIG.bindingRounds} rounds…`);
    const binding = await measureBinding(ws, board, CONFIG);
    log(
      `  p50 ${binding.unbound.p50Ms} / ${binding.bound.p50Ms} / ${binding.boundWithInbox.p50Ms} ms (bound ${binding.p50Ratio}×, with inbox ${binding.withInboxP50Ratio}×)`,
    );
    const report: TasksReport = {
      bench: 'tasks',
      machine,
      config: { ...CONFIG },
      cells,
      contention,
      binding,
      targets: targetsFor(cells, contention, binding),
    };
    const markdown = renderTasks(report);
    const path = writeResult('tasks', report);
    await writeDocSection('tasks', markdown);
    process.stdout.write(`${markdown}\n\nWrote ${path} and docs/benchmarks.md.\n`);
  } finally {
    ws.cleanup();
  }
}
