// The graph bench (`npm run bench -- graph`): the same workload against the official memory
// server (@modelcontextprotocol/server-memory, a stdio child on a temp MEMORY_FILE_PATH) and
// cairn-graph (the compiled stdio bin on a temp database) in one run: create_entities writes/s,
// search_nodes p50 at 10k and 100k entities (loaded through the tools in batches, bounded in
// time), and acknowledged writes lost with 4 concurrent writers (official) and 16 (ours).
// Writes bench/results/graph.json and the `graph` section of docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { OFFICIAL_BIN } from '../../test/graph/official.js';
import { type BenchClient, type Command, connectStdio } from '../lib/connect.js';
import { machineInfo, ROOT, writeDocSection, writeResult } from '../lib/report.js';
import { renderGraphBench, type SideReport } from './render.js';
import { bulkLoad, lostWrites, searchLatency, writeRate } from './workload.js';

const SIZES = [10_000, Number(process.env['CAIRN_BENCH_GRAPH_ENTITIES'] ?? 100_000)] as const;
const BATCH = 500;
const WRITE_CALLS = 500;
const QUERIES = 50;
/** Each side's bulk load stops here (the official server rewrites its whole file per call). */
const LOAD_BOUND_MS = 420_000;
const PHASE_BOUND_MS = 120_000;
const WRITER_ROUNDS = 25;
const WRITER_BATCH = 3;

const log = (line: string): void => void process.stderr.write(`[bench:graph] ${line}\n`);

interface Side {
  name: 'official' | 'cairn';
  writers: number;
  /** A fresh server over the side's storage in `dir` (file or database), stdio. */
  command(dir: string): Command;
}

const SIDES: readonly Side[] = [
  {
    name: 'official',
    writers: 4,
    command: (dir) => ({
      command: process.execPath,
      args: [OFFICIAL_BIN],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    }),
  },
  {
    name: 'cairn',
    writers: 16,
    command: (dir) => ({
      command: process.execPath,
      args: [join(ROOT, 'bin/cairn-mcp-graph.js'), '--db', join(dir, 'cairn.db')],
      env: { CAIRN_HOME: join(dir, 'home'), CAIRN_EMBEDDINGS: 'none', CAIRN_LOG_LEVEL: 'warn' },
      cwd: ROOT,
    }),
  },
];

async function withDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-graph-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function withClient<T>(cmd: Command, fn: (c: BenchClient) => Promise<T>): Promise<T> {
  const c = await connectStdio(cmd);
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

async function runSide(side: Side): Promise<SideReport> {
  const writes = await withDir((dir) =>
    withClient(side.command(dir), (c) => writeRate(c.client, WRITE_CALLS, PHASE_BOUND_MS)),
  );
  log(`${side.name}: ${writes.perSecond} writes/s (${writes.calls} calls)`);
  const { loads, searches } = await withDir((dir) =>
    withClient(side.command(dir), async (c) => {
      const deadline = Date.now() + LOAD_BOUND_MS;
      const out: Pick<SideReport, 'loads' | 'searches'> = { loads: [], searches: [] };
      let at = 0;
      for (const size of SIZES) {
        const load = await bulkLoad(c.client, at, size, { batch: BATCH, deadline });
        at = load.reached;
        out.loads.push({ target: size, ...load });
        log(
          `${side.name}: loaded ${load.reached} in ${load.seconds} s${load.bounded ? ' (bounded)' : ''}`,
        );
        const search = await searchLatency(c.client, at, QUERIES, PHASE_BOUND_MS);
        out.searches.push(search);
        log(`${side.name}: search_nodes p50 ${search.p50Ms} ms at ${at} (${search.wrong} wrong)`);
        if (load.bounded) break;
      }
      return out;
    }),
  );
  const concurrency = await withDir((dir) =>
    lostWrites(
      () => connectStdio(side.command(dir)),
      () => connectStdio(side.command(dir)),
      {
        writers: side.writers,
        rounds: WRITER_ROUNDS,
        batch: WRITER_BATCH,
        boundMs: PHASE_BOUND_MS,
      },
    ),
  );
  log(
    `${side.name}: ${side.writers} writers kept ${concurrency.keptEntitiesPercent}% of acknowledged entities`,
  );
  return { name: side.name, writes, loads, searches, concurrency };
}

export async function runGraphBench(): Promise<void> {
  const machine = machineInfo();
  const sides: SideReport[] = [];
  for (const side of SIDES) sides.push(await runSide(side));
  const report = {
    bench: 'graph' as const,
    machine,
    config: {
      sizes: [...SIZES],
      batch: BATCH,
      writeCalls: WRITE_CALLS,
      queries: QUERIES,
      loadBoundMs: LOAD_BOUND_MS,
      writerRounds: WRITER_ROUNDS,
      writerBatch: WRITER_BATCH,
    },
    sides,
  };
  const markdown = renderGraphBench(report);
  const path = writeResult('graph', report);
  await writeDocSection('graph', markdown);
  process.stdout.write(`${markdown}\n\nWrote ${path} and docs/benchmarks.md.\n`);
}
