// The postgres bench's markdown: PostgreSQL/SQLite ratios of the tasks and memory workloads,
// then aggregate claims/s and room posts/s of 1–3 replicas beside the SQLite single process.
// The closing sentences are computed from the figures, never written ahead of them.
import type { Measurement } from '../lib/measure.js';
import { type MachineInfo, mdTable } from '../lib/report.js';
import { type ApprovalCell, approvalRetriesPerCall } from './approvals.js';
import type { BackendCell, MemoryResult } from './compare.js';
import type { ReplicaCell } from './replicas.js';

export interface PostgresReport {
  bench: 'postgres';
  machine: MachineInfo;
  pgSource: string;
  config: Record<string, number | string>;
  tasks: BackendCell[];
  memory: MemoryResult[];
  replicas: ReplicaCell[];
  approvals: ApprovalCell[];
}

const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const lat = (m: Measurement): string => `${m.p50Ms.toFixed(1)} / ${m.p99Ms.toFixed(1)}`;
const ratio = (pg: number, lite: number): number => (lite > 0 ? pg / lite : Number.NaN);
const x = (r: number): string => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '–');

function tasksTable(cells: readonly BackendCell[]): string {
  const pairs = cells
    .filter((c) => c.backend === 'sqlite')
    .flatMap((lite) => {
      const pg = cells.find(
        (c) =>
          c.backend === 'postgres' && c.transport === lite.transport && c.clients === lite.clients,
      );
      return pg === undefined ? [] : [{ lite, pg }];
    });
  return mdTable(
    [
      'Transport',
      'Clients',
      'Tool',
      'SQLite calls/s',
      'PostgreSQL calls/s',
      'PG/SQLite',
      'PG/SQLite per echo',
      'SQLite p50 / p99 ms',
      'PostgreSQL p50 / p99 ms',
    ],
    pairs.flatMap(({ lite, pg }) =>
      (['listTasks', 'claimTask'] as const).map((tool) => [
        lite.transport,
        String(lite.clients),
        tool === 'listTasks' ? 'list_tasks' : 'claim_task',
        n(lite[tool].rate),
        n(pg[tool].rate),
        x(ratio(pg[tool].rate, lite[tool].rate)),
        x(ratio(pg[tool].rate / pg.echo.rate, lite[tool].rate / lite.echo.rate)),
        lat(lite[tool]),
        lat(pg[tool]),
      ]),
    ),
    3,
  );
}

function memoryTable(results: readonly MemoryResult[]): string {
  const lite = results.find((r) => r.backend === 'sqlite');
  const pg = results.find((r) => r.backend === 'postgres');
  if (lite === undefined || pg === undefined) return '';
  const row = (what: string, a: Measurement | { pending: string }, b: typeof a): string[] => {
    const cells = (m: typeof a): [string, string] =>
      'pending' in m ? ['pending', 'pending'] : [n(m.rate), lat(m)];
    const [ar, al] = cells(a);
    const [br, bl] = cells(b);
    const r = 'rate' in a && 'rate' in b ? x(ratio(b.rate, a.rate)) : '–';
    return [what, ar, br, r, al, bl];
  };
  return mdTable(
    [
      'Operation (in-process, 1 caller)',
      'SQLite calls/s',
      'PostgreSQL calls/s',
      'PG/SQLite',
      'SQLite p50 / p99 ms',
      'PostgreSQL p50 / p99 ms',
    ],
    [row('memory.save', lite.save, pg.save), row('memory.search (fts)', lite.search, pg.search)],
  );
}

function replicaTable(cells: readonly ReplicaCell[]): string {
  return mdTable(
    [
      'Backend',
      'Replicas',
      'Clients',
      'claims/s',
      'claim p50 / p99 ms',
      'exactly once',
      'posts/s',
      'post p50 / p99 ms',
      'gap-free',
      'PG rollbacks',
      'per call',
    ],
    cells.map((c) => [
      c.backend === 'sqlite' ? 'SQLite (1 process)' : 'PostgreSQL',
      String(c.replicas),
      String(c.clients),
      n(c.claims.rate),
      lat(c.claims),
      c.claims.exactlyOnce && c.claims.errors === 0 ? 'yes' : `NO (${c.claims.errors} errors)`,
      n(c.posts.rate),
      lat(c.posts),
      c.posts.gapFree && c.posts.errors === 0 ? 'yes' : `NO (${c.posts.errors} errors)`,
      c.rollbacks === undefined ? '–' : n(c.rollbacks),
      c.rollbacks === undefined ? '–' : rollbacksPerCall(c).toFixed(2),
    ]),
    1,
  );
}

function approvalTable(cells: readonly ApprovalCell[]): string {
  const lite = cells.find((c) => c.backend === 'sqlite')?.calls.rate ?? Number.NaN;
  return mdTable(
    [
      'Backend',
      'Replicas',
      'Clients × deciders',
      'approvals/s',
      'PG/SQLite',
      'call p50 / p99 ms',
      'exactly once',
      'deciders 200 / 409 / other',
      'PG rollbacks',
      'retries per call',
    ],
    cells.map((c) => [
      c.backend === 'sqlite' ? 'SQLite (1 process)' : 'PostgreSQL',
      String(c.replicas),
      `${c.clients} × ${c.deciders}`,
      n(c.calls.rate),
      c.backend === 'sqlite' ? '–' : x(ratio(c.calls.rate, lite)),
      lat(c.calls),
      c.calls.exactlyOnce && c.calls.errors === 0 ? 'yes' : `NO (${c.calls.errors} errors)`,
      `${n(c.answers.won)} / ${n(c.answers.refused)} / ${n(c.answers.other)}`,
      c.rollbacks === undefined ? '–' : n(c.rollbacks),
      c.rollbacks === undefined ? '–' : approvalRetriesPerCall(c).toFixed(2),
    ]),
    1,
  );
}

/** The approvals section, or nothing when the run measured none. */
function approvalSection(r: PostgresReport): string {
  if (r.approvals.length === 0) return '';
  const pg = r.approvals.filter((c) => c.rollbacks !== undefined).map(approvalRetriesPerCall);
  const range =
    pg.length === 0 ? '–' : `${Math.min(...pg).toFixed(2)}–${Math.max(...pg).toFixed(2)}`;
  return `
### Approvals under racing deciders (aggregate, clients pinned evenly)

${approvalTable(r.approvals)}

Each client loops on \`delete_path\` (destructive: it waits for a human). As soon as a call reports its approval id (its first progress notification), ${String(r.config['deciders'])} deciders race to allow it over REST, decider k through replica (client + k) mod replicas; a cell counts a call as acknowledged when it was released and exactly one decider got 200 and the others 409. Checked in the database afterwards: each approval allowed once (one \`decision\` audit row), by the decider that got the 200. PG rollbacks counts every rolled-back transaction of the cell's database, the deciders' refusals among them (each 409 is thrown inside its write); retries per call leaves those out: ${range} serialization failures or deadlocks retried per acknowledged call. Windows of ${String(r.config['approvalWindowMs'])} ms.
`;
}

/** min–max of the PG/SQLite ratios of `pick`, over the paired tasks cells. */
function span(values: readonly number[]): string {
  const ok = values.filter(Number.isFinite);
  if (ok.length === 0) return '–';
  return `${Math.min(...ok).toFixed(2)}–${Math.max(...ok).toFixed(2)}×`;
}

/** The one-machine verdict, from the ratios themselves. */
function speedSentence(
  all: readonly number[],
  ratios: (tool: 'listTasks' | 'claimTask') => number[],
): string {
  const figures = `list_tasks at ${span(ratios('listTasks'))} and claim_task at ${span(ratios('claimTask'))} of SQLite's rate`;
  const ok = all.filter(Number.isFinite);
  const why = 'replicas behind a load balancer, several hosts, a database that outlives its host';
  if (ok.every((v) => v < 1)) {
    return `On one machine PostgreSQL does not pay off for speed: it served ${figures}, since every call crosses a socket to another process where SQLite works on its file in-process; move to it for what one SQLite file cannot give (${why}).`;
  }
  if (ok.every((v) => v >= 1)) {
    return `On one machine PostgreSQL served ${figures}: it kept up with or beat SQLite for these calls, so it pays off even on one machine for this load.`;
  }
  return `On one machine PostgreSQL was not faster across the board: it served ${figures}. Where a ratio is near or above 1× it kept up in this run; where it is below, SQLite's in-process file wins over a socket to another process. The reasons to move are what one SQLite file cannot give (${why}), not speed on one machine.`;
}

/** How the replicas scaled, from the figures; the shared cores are why, on this machine. */
function replicaSentence(
  clients: number,
  replicas: number,
  f: { claims: number; posts: number; lite: ReplicaCell | undefined },
): string {
  const both = [f.claims, f.posts].filter(Number.isFinite);
  const verdict = both.every((v) => v < 0.95)
    ? 'fewer calls per second than one replica, not more'
    : both.every((v) => v > 1.1)
      ? 'more calls per second than one replica'
      : 'about what one replica did';
  const lite =
    f.lite === undefined
      ? ''
      : ` (the SQLite single process: ${n(f.lite.claims.rate)} claims/s and ${n(f.lite.posts.rate)} posts/s)`;
  return `With ${clients} clients, ${replicas} replicas on one PostgreSQL gave ${x(f.claims)} the claims/s and ${x(f.posts)} the posts/s of one replica${lite}: ${verdict}. On this 2-core machine the replicas, the PostgreSQL server and the bench's clients all share the same two cores, so replicas here add processes competing for them; on separate hosts each replica brings its own CPU and only the database is shared, which this machine cannot show.`;
}

/** A cell's rolled-back transactions per acknowledged claim or post. */
function rollbacksPerCall(c: ReplicaCell): number {
  const acked = c.claims.calls + c.posts.calls - c.claims.errors - c.posts.errors;
  return (c.rollbacks ?? 0) / Math.max(1, acked);
}

/** Rolled-back (retried) transactions per acknowledged call, over the PostgreSQL cells. */
function retrySentence(cells: readonly ReplicaCell[]): string {
  const counted = cells.filter((c) => c.rollbacks !== undefined);
  if (counted.length === 0) return '';
  const per = counted.map(rollbacksPerCall);
  const range = `${Math.min(...per).toFixed(2)}–${Math.max(...per).toFixed(2)}`;
  const failed = counted.reduce((k, c) => k + c.claims.errors + c.posts.errors, 0);
  const errors = failed === 0 ? 'no call failed' : `${failed} calls failed`;
  const rows = `Claims and room posts are 'rows' writes: READ COMMITTED under row locks (the claim's conditional UPDATE, the room's counter row), so concurrent writers of different rows never roll each other back`;
  if (Math.max(...per) === 0) {
    return `Rollbacks: none in any PostgreSQL cell (${errors}). ${rows}, and writers of one row wait for its lock instead of retrying.`;
  }
  if (Math.max(...per) < 0.5) {
    return `Rollbacks: ${range} per acknowledged claim or post (${errors}). ${rows}; what remains are deadlocks and the SERIALIZABLE writes beside them, retried by \`write()\`.`;
  }
  return `Why PostgreSQL falls behind under concurrency: its cells rolled back ${range} transactions per acknowledged claim or post (${errors}; these are the serialization failures and deadlocks that \`write()\` retried, with backoff), so much of its time under 16–64 writers goes to retries, not to work.`;
}

function findings(r: PostgresReport): string {
  const pgCells = r.tasks.filter((c) => c.backend === 'postgres');
  const ratios = (tool: 'listTasks' | 'claimTask'): number[] =>
    pgCells.flatMap((pg) => {
      const lite = r.tasks.find(
        (c) => c.backend === 'sqlite' && c.transport === pg.transport && c.clients === pg.clients,
      );
      return lite === undefined ? [] : [ratio(pg[tool].rate, lite[tool].rate)];
    });
  const pgRep = r.replicas.filter((c) => c.backend === 'postgres');
  const most = Math.max(0, ...pgRep.map((c) => c.clients));
  const rate = (reps: number, kind: 'claims' | 'posts'): number =>
    pgRep.find((c) => c.replicas === reps && c.clients === most)?.[kind].rate ?? Number.NaN;
  const lite = r.replicas.find((c) => c.backend === 'sqlite' && c.clients === most);
  const maxReps = Math.max(1, ...pgRep.map((c) => c.replicas));
  return [
    speedSentence([...ratios('listTasks'), ...ratios('claimTask')], ratios),
    replicaSentence(most, maxReps, {
      claims: ratio(rate(maxReps, 'claims'), rate(1, 'claims')),
      posts: ratio(rate(maxReps, 'posts'), rate(1, 'posts')),
      lite,
    }),
    retrySentence(pgRep),
    r.machine.loadAvg1m > 2
      ? `The machine was shared with other developers' work while this ran (load ${r.machine.loadAvg1m} at the start), so absolute rates are noisy; the ratios within this one run are what count.`
      : `The machine was quiet when this ran (load ${r.machine.loadAvg1m} at the start); it is a shared machine, so the ratios within this one run are what count.`,
  ]
    .filter((p) => p !== '')
    .join('\n\n');
}

/** Renders the report as the `postgres` section of docs/benchmarks.md. */
export function renderPostgres(r: PostgresReport): string {
  const m = r.machine;
  const pending = r.memory.find((x2) => x2.backend === 'postgres' && 'pending' in x2.search);
  return `## PostgreSQL beside SQLite, and replicas (\`npm run bench -- postgres\`)

${m.date.slice(0, 10)}, commit ${m.commit}, Node ${m.node}, ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB; PostgreSQL: ${r.pgSource} (fsync off, as in CI). Same machine, same workload, one run.

### Tasks server (Streamable HTTP, \`cairn serve\`), PostgreSQL/SQLite

${tasksTable(r.tasks)}

"PG/SQLite per echo" divides each rate by the bare SDK echo server's rate measured in the same cell (the tasks bench's baseline), which takes out most of a change in the shared machine's load between the two cells; the backends take turns cell by cell.

### Memory service

${memoryTable(r.memory)}
${pending === undefined ? '' : '\nmemory.search on PostgreSQL is pending: its search index is still being ported, so it was not measured (the bench records the error it gave).\n'}
### Replicas on one PostgreSQL (aggregate, clients pinned evenly, one replica each)

${replicaTable(r.replicas)}

Each cell is a fresh copy of the seeded database; claims draw distinct tasks and are checked in the database afterwards (each acknowledged claim held by its agent, nothing else claimed); room posts are checked for sequence gaps. PG rollbacks: transactions the cell's database rolled back (from \`pg_stat_database\`; a serialization failure or deadlock that \`write()\` retried counts here). Windows of ${String(r.config['replicaWindowMs'])} ms per workload.

${approvalSection(r)}
${findings(r)}

Reproduce: \`npm run build && npm run bench -- postgres\` (needs Debian's postgresql-15, or \`CAIRN_BENCH_PG_URL\` naming a server's admin database); \`CAIRN_BENCH_PG_QUICK=1\` runs a short smoke version; \`CAIRN_BENCH_PG_PARTS=approvals\` (or any of tasks, memory, replicas, approvals, comma-separated) runs those parts alone and leaves docs/benchmarks.md as it is.`;
}
