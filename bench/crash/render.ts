// The crash bench's markdown section for docs/benchmarks.md.
import type { CrashConfig } from '../../test/crash/run.js';
import type { KindFigures } from '../../test/crash/verify.js';
import { type MachineInfo, mdTable } from '../lib/report.js';

export interface CrashReport {
  bench: 'crash';
  machine: MachineInfo;
  config: CrashConfig;
  seconds: number;
  killed: Record<string, number>;
  started: Record<string, number>;
  figures: Record<string, KindFigures>;
  integrity: string;
  foreignKeyViolations: number;
  problems: string[];
}

const n = (x: number): string => Math.round(x).toLocaleString('en-US');

/** What each write kind is, as the table names it. */
const WHAT: Record<string, string> = {
  task: '`create_task` (subtask) over stdio',
  comment: '`add_comment` over stdio',
  claim: '`claim_task` over stdio',
  fact: '`memory_save` fact (stdio and Streamable HTTP)',
  procedure: '`memory_save` procedure version (stdio and HTTP)',
  post: '`team_chat_post` over stdio',
  delegation: '`team_delegate` over stdio',
  note: '`note` (tools server) over stdio',
  gated_call: '`delete_path` approved and executed',
  decision: 'approval decided over REST (`cairn serve`)',
};

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Renders the report as markdown. */
export function renderCrash(r: CrashReport): string {
  const m = r.machine;
  const rows = Object.entries(r.figures).map(([kind, f]) => [
    WHAT[kind] ?? kind,
    n(f.attempted),
    n(f.acknowledged),
    n(f.kept),
    n(f.landedUnacknowledged),
  ]);
  const all = Object.values(r.figures);
  rows.push([
    '**all writes**',
    n(sum(all.map((f) => f.attempted))),
    n(sum(all.map((f) => f.acknowledged))),
    n(sum(all.map((f) => f.kept))),
    n(sum(all.map((f) => f.landedUnacknowledged))),
  ]);
  const kinds = Object.keys(r.killed);
  return [
    '## Crash safety',
    '',
    `${m.date.slice(0, 10)} · Node ${m.node} · ${m.cpus} × ${m.cpuModel} · ${m.platform} · load ${m.loadAvg1m} · commit ${m.commit}. Reproduce with \`npm run bench -- crash\` (the same run as \`test/crash/crash.test.ts\`, ${r.config.rounds} rounds instead of 3; seed ${r.config.seed}).`,
    '',
    `Five server processes write one SQLite file as fast as they are answered: the tasks, memory, teamchat and tools stdio bins and \`cairn serve\` (memory over Streamable HTTP, and the REST API a decider loop approves pending \`delete_path\` calls through). Each round SIGKILLs the kinds whose turn it is plus each other at ${Math.round(r.config.extraKill * 100)} %, each at a random point inside one of its calls in flight, after a random ${r.config.killDelayMs[0]}–${r.config.killDelayMs[1]} ms; their successors were started meanwhile. A last round SIGKILLs all five mid-write. Then a copy of the file (and its WAL) is checked: every acknowledged write must be there whole (a task with its create event, each status change chained in \`task_events\`, a memory item in FTS5 and in the BM25 postings or marked for them, procedure versions 1..n with one active, room posts numbered without a gap by authors on the roster, a delegation with its assignment, comment and audit row, a note per audited note execution, an approval with its pending and decision audit rows, no \`delete_path\` executed without an allowed approval), \`PRAGMA integrity_check\`, \`foreign_key_check\` and the FTS5 integrity-check. "Landed unacknowledged" counts writes in flight at a kill that committed (whole) before the process died.`,
    '',
    mdTable(['Write', 'Attempted', 'Acknowledged', 'Kept', 'Landed unacknowledged'], rows),
    '',
    mdTable(
      ['Processes', ...kinds, 'all'],
      [
        ['started', ...kinds.map((k) => n(r.started[k] ?? 0)), n(sum(Object.values(r.started)))],
        ['SIGKILLed', ...kinds.map((k) => n(r.killed[k] ?? 0)), n(sum(Object.values(r.killed)))],
      ],
    ),
    '',
    `\`integrity_check\`: ${r.integrity}; foreign-key violations: ${r.foreignKeyViolations}; problems: ${r.problems.length === 0 ? 'none' : r.problems.slice(0, 10).join('; ')}. ${r.seconds.toFixed(0)} s in all.`,
  ].join('\n');
}
