// Markdown for the `graph` bench section of docs/benchmarks.md: the official memory server and
// cairn-graph side by side (writes/s, bulk load, search_nodes latency, writes lost).
import { type MachineInfo, mdTable } from '../lib/report.js';
import type { Load, LostWrites, SearchLatency, WriteRate } from './workload.js';

export interface SideReport {
  name: 'official' | 'cairn';
  writes: WriteRate;
  loads: (Load & { target: number })[];
  searches: SearchLatency[];
  concurrency: LostWrites;
}

export interface GraphBenchReport {
  bench: 'graph';
  machine: MachineInfo;
  config: {
    sizes: number[];
    batch: number;
    writeCalls: number;
    queries: number;
    loadBoundMs: number;
    writerRounds: number;
    writerBatch: number;
  };
  sides: SideReport[];
}

const int = (n: number): string => n.toLocaleString('en-US');
const LABEL = { official: '@modelcontextprotocol/server-memory', cairn: 'cairn-graph' } as const;

function searchCell(s: SideReport, size: number): string {
  const found = s.searches.find((x) => x.entities === size);
  if (found !== undefined) return `${found.p50Ms} ms (p99 ${found.p99Ms})`;
  const last = s.searches.at(-1);
  return last === undefined ? '–' : `not reached (load bounded at ${int(last.entities)})`;
}

export function renderGraphBench(r: GraphBenchReport): string {
  const m = r.machine;
  const c = r.config;
  const [small = 0, large = 0] = c.sizes;
  const rows = r.sides.map((s) => [
    LABEL[s.name],
    int(s.writes.perSecond),
    searchCell(s, small),
    searchCell(s, large),
    s.loads
      .map((l) => `${int(l.reached)} in ${l.seconds} s${l.bounded ? ' (bounded)' : ''}`)
      .join('; '),
    `${s.concurrency.writers}`,
    `${int(s.concurrency.lostEntities)} entities, ${int(s.concurrency.lostRelations)} relations of ${int(s.concurrency.acknowledged)} (${s.concurrency.keptEntitiesPercent}% of entities kept)`,
  ]);
  const wrong = r.sides.flatMap((s) =>
    s.searches
      .filter((x) => x.wrong > 0)
      .map((x) => `${LABEL[s.name]} at ${int(x.entities)}: ${x.wrong}`),
  );
  return [
    '## Knowledge graph: cairn-graph vs the official memory server',
    '',
    `Measured ${m.date.slice(0, 10)} on ${m.cpus}× ${m.cpuModel}, Node ${m.node}, commit ${m.commit}, load average ${m.loadAvg1m} at the start (a shared machine: rates move between runs). Both servers over stdio, one run of \`npm run bench -- graph\`: writes/s are ${int(c.writeCalls)} sequential \`create_entities\` calls of one entity into an empty graph; the load goes through \`create_entities\` in batches of ${int(c.batch)} (two observations each, bounded at ${c.loadBoundMs / 1000} s per server); \`search_nodes\` latency over ${c.queries} selective queries (a token of one entity, upper-cased) at each size; writes lost: that many writer processes on one file/database, ${c.writerRounds} rounds each of ${c.writerBatch} entities and ${c.writerBatch} relations, then one \`read_graph\`.`,
    '',
    mdTable(
      [
        'server',
        'writes/s',
        `search_nodes p50 at ${int(small)}`,
        `search_nodes p50 at ${int(large)}`,
        'bulk load',
        'writers',
        'acknowledged writes lost',
      ],
      rows,
    ),
    '',
    wrong.length === 0
      ? 'Every query answered exactly the one entity its token names, on both servers.'
      : `Queries with a wrong answer: ${wrong.join('; ')}.`,
  ].join('\n');
}
