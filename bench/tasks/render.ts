// The tasks bench's markdown: throughput and overhead, latency, contention, and the targets.
import type { MachineInfo } from '../lib/report.js';
import { mdTable } from '../lib/report.js';
import type { BindingResult } from './binding.js';
import type { ContentionResult } from './contention.js';
import type { Cell } from './throughput.js';

export interface Target {
  name: string;
  limit: string;
  value: string;
  met: boolean;
}

export interface TasksReport {
  bench: 'tasks';
  machine: MachineInfo;
  config: Record<string, number>;
  cells: Cell[];
  contention: ContentionResult;
  binding: BindingResult;
  targets: Target[];
}

const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const ms = (p50: number, p99: number): string => `${p50.toFixed(2)} / ${p99.toFixed(2)}`;
const x = (ratio: number): string => `${ratio.toFixed(2)}×`;

/** Renders the report as the markdown section of docs/benchmarks.md. */
export function renderTasks(r: TasksReport): string {
  const m = r.machine;
  const c = r.contention;
  const cfg = (key: string): string => String(r.config[key] ?? '?');
  const throughput = mdTable(
    [
      'Transport',
      'Clients',
      'echo calls/s',
      'list_tasks calls/s',
      'overhead',
      'claim_task calls/s',
      'overhead',
    ],
    r.cells.map((cell) => [
      cell.transport,
      String(cell.clients),
      n(cell.echo.rate),
      n(cell.listTasks.rate),
      x(cell.overhead.listTasks),
      n(cell.claimTask.rate),
      x(cell.overhead.claimTask),
    ]),
  );
  const latency = mdTable(
    [
      'Transport',
      'Clients',
      'echo p50 / p99 ms',
      'list_tasks p50 / p99 ms',
      'claim_task p50 / p99 ms',
      'errors',
    ],
    r.cells.map((cell) => [
      cell.transport,
      String(cell.clients),
      ms(cell.echo.p50Ms, cell.echo.p99Ms),
      ms(cell.listTasks.p50Ms, cell.listTasks.p99Ms),
      ms(cell.claimTask.p50Ms, cell.claimTask.p99Ms),
      String(cell.echo.errors + cell.listTasks.errors + cell.claimTask.errors),
    ]),
  );
  const cpu = (v: number | undefined): string => (v === undefined ? 'n/a' : n(v));
  const cpuTable = mdTable(
    [
      'Transport',
      'Clients',
      'echo server / client µs',
      'list_tasks server / client µs',
      'claim_task server / client µs',
    ],
    r.cells.map((cell) => [
      cell.transport,
      String(cell.clients),
      ...[cell.echo, cell.listTasks, cell.claimTask].map(
        (m) => `${cpu(m.serverCpuUs)} / ${cpu(m.clientCpuUs)}`,
      ),
    ]),
  );
  const contention = mdTable(
    ['Processes', 'Pool', 'Claimed', 'Claims/s', 'Calls/s', 'Conflicts', 'Failed', 'p50 / p99 ms'],
    [
      [
        String(c.processes),
        n(c.poolTasks),
        n(c.claimed),
        n(c.claimsPerSecond),
        n(c.callsPerSecond),
        n(c.conflicts),
        n(c.failed),
        ms(c.p50Ms, c.p99Ms),
      ],
    ],
  );
  const b = r.binding;
  const binding = mdTable(
    ['Session', 'p50 ms', 'p99 ms', 'p50 vs unbound'],
    [
      ['unbound', b.unbound.p50Ms.toFixed(3), b.unbound.p99Ms.toFixed(3), '1.00×'],
      [
        'bound, nothing waiting',
        b.bound.p50Ms.toFixed(3),
        b.bound.p99Ms.toFixed(3),
        `${b.p50Ratio.toFixed(2)}×`,
      ],
      [
        'bound, one entry waiting',
        b.boundWithInbox.p50Ms.toFixed(3),
        b.boundWithInbox.p99Ms.toFixed(3),
        `${b.withInboxP50Ratio.toFixed(2)}×`,
      ],
    ],
  );
  const targets = mdTable(
    ['Target', 'Limit', 'Measured', 'Met'],
    r.targets.map((t) => [t.name, t.limit, t.value, t.met ? 'yes' : '**no**']),
  );
  return `## Tasks server

Measured ${m.date.slice(0, 10)} on ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.platform},
Node ${m.node}, commit ${m.commit}, 1-min load average ${m.loadAvg1m} at start.
Raw figures: [\`bench/results/tasks.json\`](../bench/results/tasks.json).

### Calls per second, Cairn vs a bare SDK echo server

Overhead = echo calls/s ÷ Cairn calls/s on the same transport and concurrency (1.00× = none).
\`list_tasks\` returns a ${cfg('listTasks')}-task board; each \`claim_task\` claims a fresh todo task.
Each call kind is warmed up for ${cfg('warmupMs')} ms, then measured in ${cfg('rounds')} windows of
${cfg('windowMs')} ms, the three kinds taking turns (order rotated each round).

${throughput}

### Latency per call

${latency}

### CPU per call

CPU time per call of the server process(es) (summed over the 16 stdio processes) and of the
bench process that hosts every client, from \`/proc\` and \`process.cpuUsage()\`. Less sensitive to
a noisy neighbour than calls/s, and it shows when the clients, not the server, are the limit.

${cpuTable}

### Claim contention: ${c.processes} stdio processes on one database file

Every process walks the same ${n(c.poolTasks)} todo tasks in its own shuffled order until the pool is
drained${c.drained ? '' : ' (**not drained within the time cap**)'}. Claims/s counts successful claims; conflicts
are the expected \`conflict\` tool-error; failed is anything else. Double claims: ${c.doubleClaims}.

${contention}

### What an agent binding costs

\`list_tasks\` over stdio from an unbound session, from one bound with \`--agent\` (holder checks,
the refusal circuit's caller, and the inbox check on every result), and from another bound
session that finds one inbox entry waiting (a peer's comment @mentioning its agent, posted untimed
just before, so the answer carries the piggyback). Each session is its own process. The three take turns call by call (order rotated each round), ${n(r.binding.unbound.calls)} rounds after
${cfg('bindingWarmup')} warm-up rounds. Piggybacks missing from the third kind: ${r.binding.missedPiggybacks}.

${binding}

### Targets

${targets}`;
}
