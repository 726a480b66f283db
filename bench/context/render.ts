// The `context` section of docs/benchmarks.md from one run's result, with the targets
// (≥ 20k lines/s without embeddings, re-index after one edit < 1 s, another server's tool-call
// latency while indexing ≤ 1.5× idle) said met or not met from the numbers themselves.
import { type MachineInfo, mdTable } from '../lib/report.js';
import type { EmbedWait, IndexRun, Latency } from './measure.js';

interface Search extends Latency {
  meanResults: number;
  basis: string[];
}

export interface ContextResult {
  machine: MachineInfo;
  tree: string;
  plain: {
    idle: Latency;
    duringIndex: Latency;
    python: IndexRun;
    unchangedMs: number;
    touchOneMs: number[];
    search: { fts: Search; filtered: Search; queries: number };
    repo: IndexRun;
    git: IndexRun;
    peakRssMiB: number | undefined;
    dbMiB: number;
  };
  embedded: {
    idle: Latency;
    duringEmbed: Latency;
    index: IndexRun;
    embed: EmbedWait;
    chunksPerSecond: number;
    linesPerSecond: number | null;
    hybrid: Search;
    peakRssMiB: number | undefined;
    dbMiB: number;
  };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};
const ratio = (a: Latency, b: Latency): number => Math.round((b.p50Ms / a.p50Ms) * 100) / 100;
const ratio99 = (a: Latency, b: Latency): number => Math.round((b.p99Ms / a.p99Ms) * 100) / 100;
const lat = (l: Latency): string => `${l.p50Ms} / ${l.p99Ms} ms (${l.calls} calls)`;
const met = (ok: boolean): string => (ok ? '**met**' : '**not met**');

/** Index time plus every chunk at the measured embedding rate, seconds. */
const projectedS = (e: ContextResult['embedded']): number =>
  Math.round(e.index.callMs / 1000 + e.embed.chunks / Math.max(e.chunksPerSecond, 0.001));

export function render(r: ContextResult, boundMs: number): string {
  const p = r.plain;
  const e = r.embedded;
  const touch = median(p.touchOneMs);
  const slowdown = ratio(p.idle, p.duringIndex);
  const embedLine = e.embed.complete
    ? `${e.linesPerSecond} lines/s (index ${e.index.callMs} ms + embeddings ${e.embed.ms} ms)`
    : `not finished within the ${boundMs / 1000} s bound: ${e.embed.embedded} of ${e.embed.chunks} chunks embedded; at that rate the whole run would take about ${projectedS(e)} s, ${Math.round(e.index.lines / projectedS(e))} lines/s (a projection, not a measurement)`;
  const rows = [
    [
      `index ${r.tree}, no embeddings (index_repo call)`,
      `${p.python.callMs} ms, ${p.python.linesPerSecond} lines/s`,
    ],
    ['files / lines / chunks', `${p.python.files} / ${p.python.lines} / ${p.python.chunks}`],
    ['re-index, nothing changed (call)', `${p.unchangedMs} ms`],
    ['re-index after editing one file (call, median)', `${touch} ms (${p.touchOneMs.join(', ')})`],
    [`search_code fts p50 / p99 (${p.search.queries} queries)`, lat(p.search.fts)],
    ['search_code fts with `path:email/` p50 / p99', lat(p.search.filtered)],
    ['tasks list_tasks p50 / p99, idle', lat(p.idle)],
    [
      'tasks list_tasks p50 / p99, while the Python tree is indexed',
      `${lat(p.duringIndex)}: ${slowdown}× idle p50, ${ratio99(p.idle, p.duringIndex)}× idle p99`,
    ],
    [
      'this repository (git clone), work tree / git_index with commits',
      `${p.repo.lines} lines: ${p.repo.linesPerSecond} / ${p.git.linesPerSecond} lines/s`,
    ],
    [
      'server peak RSS / database with WAL, after both',
      `${p.peakRssMiB ?? '?'} MiB / ${p.dbMiB} MiB`,
    ],
    ['this repository with the local model (index + every chunk embedded)', embedLine],
    ['chunk embeddings in the background', `${e.embed.embedded} chunks, ${e.chunksPerSecond}/s`],
    [
      'tasks list_tasks p50 / p99, idle → while chunks embed',
      `${lat(e.idle)} → ${lat(e.duringEmbed)}: ${ratio(e.idle, e.duringEmbed)}× idle p50, ${ratio99(e.idle, e.duringEmbed)}× idle p99`,
    ],
    [
      `search_code hybrid p50 / p99 while the embedding backlog still runs (basis: ${e.hybrid.basis.join(', ') || 'none'})`,
      lat(e.hybrid),
    ],
    [
      'server peak RSS / database with WAL, with the model',
      `${e.peakRssMiB ?? '?'} MiB / ${e.dbMiB} MiB`,
    ],
  ];
  const m = r.machine;
  return `## Context server

\`npm run bench -- context\`: \`cairn serve --no-auth\` (compiled \`dist/\`, a child process with
its own home and database) driven over Streamable HTTP by SDK clients, one call at a time:
index_repo (waiting for its job) on ${r.tree} copied to a temp folder and on a \`git clone\` of
this repository; search_code over the Python tree; the tasks server's \`list_tasks\` sampled every
10 ms (20 ms while embedding) idle, while an index job runs and while the chunk embedding backlog
runs; then a second server with the local model (\`CAIRN_EMBEDDINGS=local\`, default rest) indexes
the clone and embeds its chunks, bounded at ${boundMs / 1000} s. ${m.date}, ${m.cpus} × ${m.cpuModel}, load ${m.loadAvg1m}, commit ${m.commit}.

${mdTable(['What', 'Measured'], rows, 2)}

Targets: ≥ 20,000 lines/s without embeddings: ${met(p.python.linesPerSecond >= 20_000)}
(${p.python.linesPerSecond}); re-index after one edit < 1 s: ${met(touch < 1000)} (${touch} ms);
another server's tool calls while indexing ≤ 1.5× idle (p50): ${met(slowdown <= 1.5)} (${slowdown}×).`;
}
