// The rooms bench's markdown section for docs/benchmarks.md.
import { type MachineInfo, mdTable } from '../lib/report.js';
import type { LatencyResult, OverheadResult, ThroughputResult } from './measure.js';

export interface RoomsReport {
  bench: 'rooms';
  machine: MachineInfo;
  config: Record<string, number>;
  posting: ThroughputResult;
  latency: { sameProcess: LatencyResult; crossProcess: LatencyResult };
  overhead: OverheadResult;
}

const n = (x: number): string => Math.round(x).toLocaleString('en-US');

/** Renders the report as markdown. */
export function renderRooms(r: RoomsReport): string {
  const m = r.machine;
  const p = r.posting;
  const lat = (name: string, l: LatencyResult): string[] => [
    name,
    String(l.samples),
    l.p50Ms.toFixed(2),
    l.p99Ms.toFixed(2),
    l.maxMs.toFixed(2),
    String(l.timeouts),
  ];
  return [
    '## Rooms',
    '',
    `${m.date.slice(0, 10)} · Node ${m.node} · ${m.cpus} × ${m.cpuModel} · ${m.platform} · load ${m.loadAvg1m} · commit ${m.commit}. Reproduce with \`npm run bench -- rooms\`.`,
    '',
    mdTable(
      ['Posting', 'Processes', 'Posts', 'Failed', 'Seconds', 'Posts/s', 'Seqs gap-free'],
      [
        [
          'team_chat_post over stdio, one room',
          String(p.processes),
          n(p.posts),
          String(p.failed),
          p.seconds.toFixed(2),
          n(p.postsPerSecond),
          p.gapFree ? 'yes' : 'NO',
        ],
      ],
    ),
    '',
    'Long-poll delivery: a subscriber waits in `team_chat_subscribe` (`waitMs` 5000); latency runs from just before the post call to the subscriber’s answer, so it includes the post’s own round trip.',
    '',
    mdTable(
      ['Poster', 'Samples', 'p50 ms', 'p99 ms', 'max ms', 'Timeouts'],
      [
        lat('same process (in-memory MCP client)', r.latency.sameProcess),
        lat('another OS process (stdio bin)', r.latency.crossProcess),
      ],
    ),
    '',
    'Broker overhead per safe call (`echo`), in one run: the full pipeline (availability, validation, inspectors, the eight audit rows written in one transaction at the end) vs parsing and executing `echo` directly. Before batching (one autocommit per audit row) the same measurement was 1,568 µs per call.',
    '',
    mdTable(
      ['Path', 'µs per call', 'Ratio'],
      [
        ['direct (parse + execute)', r.overhead.directUs.toFixed(2), '1×'],
        ['broker pipeline', r.overhead.brokerUs.toFixed(1), `${r.overhead.ratio}×`],
      ],
    ),
  ].join('\n');
}
