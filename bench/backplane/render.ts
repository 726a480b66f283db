// The backplane bench's markdown section for docs/benchmarks.md.
import { type MachineInfo, mdTable } from '../lib/report.js';
import type { DelayResult, RateResult } from './measure.js';

export interface BackplaneReport {
  bench: 'backplane';
  machine: MachineInfo;
  config: Record<string, number>;
  mcp: RateResult;
  irc: RateResult;
  delay: DelayResult;
}

const n = (x: number): string => Math.round(x).toLocaleString('en-US');

const rate = (name: string, r: RateResult): string[] => [
  name,
  String(r.connections),
  n(r.messages),
  String(r.failed),
  r.seconds.toFixed(2),
  n(r.messagesPerSecond),
];

/** Renders the report as markdown. */
export function renderBackplane(r: BackplaneReport): string {
  const m = r.machine;
  const d = r.delay;
  return [
    '## Backplane',
    '',
    `${m.date.slice(0, 10)} · Node ${m.node} · ${m.cpus} × ${m.cpuModel} · ${m.platform} · load ${m.loadAvg1m} · commit ${m.commit}. Reproduce with \`npm run bench -- backplane\`.`,
    '',
    'Throughput into one channel: `send_message` from in-memory SDK clients (one process), and `PRIVMSG` lines pipelined by raw IRC connections over loopback TCP (counted once stored in history). The IRC run lifts the per-connection flood limit; with the defaults (burst 40, then 10 lines/s) one connection is capped at 10 lines/s by design.',
    '',
    mdTable(
      ['Path', 'Connections', 'Messages', 'Failed', 'Seconds', 'Messages/s'],
      [rate('MCP send_message', r.mcp), rate('IRC PRIVMSG → history', r.irc)],
    ),
    '',
    `Delivery delay with ${d.clients} IRC clients joined: from just before a \`send_message\` call (in-memory MCP client, same process as the gateway) to each IRC client reading the envelope's PRIVMSG; one sample per client per send.`,
    '',
    mdTable(
      ['Clients', 'Sends', 'Samples', 'p50 ms', 'p99 ms', 'max ms', 'Timeouts'],
      [
        [
          String(d.clients),
          String(d.sends),
          String(d.samples),
          d.p50Ms.toFixed(2),
          d.p99Ms.toFixed(2),
          d.maxMs.toFixed(2),
          String(d.timeouts),
        ],
      ],
    ),
  ].join('\n');
}
