// The indexer bench: a full index of /usr/lib/python3.11 (or CAIRN_BENCH_INDEX_TREE) through a
// worker thread, a re-index with nothing changed, re-indexes after touching one file (warm
// worker), and another connection's read and write latency while a full index runs, against
// idle. Writes bench/results/indexer.json and the `indexer` section of docs/benchmarks.md.
import { appendFileSync, cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import type { Provenance } from '../../src/activity/index.js';
import { createCodeIndex, type JobStatus } from '../../src/code/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { quantile } from '../lib/measure.js';
import { machineInfo, mdTable, writeDocSection, writeResult } from '../lib/report.js';

const SOURCE = process.env['CAIRN_BENCH_INDEX_TREE'] ?? '/usr/lib/python3.11';
const TOUCHED = ['os.py', 'ast.py', 'typing.py', 'json/decoder.py', 'argparse.py'];
const PROVENANCE: Provenance = {
  session_id: 'bench',
  repo_path: SOURCE,
  worktree_id: 'main',
  agent_program: 'cairn-bench',
  delegated: false,
  timestamp: 0,
};

const log = (line: string): void => void process.stderr.write(`[bench:indexer] ${line}\n`);
const ms = (s: JobStatus): number => (s.finishedAt ?? 0) - (s.startedAt ?? 0);

/** One read and one write on `store` every 10 ms until `until` settles; latencies in ms. */
async function probe(store: Store, until: Promise<unknown> | null, count = 200) {
  const reads: number[] = [];
  const writes: number[] = [];
  let over = until === null;
  void until?.then(() => (over = true));
  for (let i = 0; until === null ? i < count : !over; i++) {
    let t = performance.now();
    await store.get('SELECT COUNT(*) AS n FROM code_collections');
    reads.push(performance.now() - t);
    t = performance.now();
    await store.write((tx) => tx.run('INSERT INTO bench_probe VALUES (?)', [i]));
    writes.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  const q = (xs: number[], p: number): number =>
    Number(
      quantile(
        xs.sort((a, b) => a - b),
        p,
      ).toFixed(2),
    );
  return {
    samples: reads.length,
    readP50: q(reads, 0.5),
    readP99: q(reads, 0.99),
    writeP50: q(writes, 0.5),
    writeP99: q(writes, 0.99),
  };
}

export async function runIndexerBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-indexer-'));
  const tree = join(dir, 'tree');
  cpSync(SOURCE, tree, { recursive: true });
  const store = await openSqliteStore(join(dir, 'cairn.db'));
  await store.run('CREATE TABLE bench_probe (x INTEGER)');
  const index = createCodeIndex(store);
  const run = async (collection: string): Promise<JobStatus> => {
    const started = await index.start({ path: tree, collection }, PROVENANCE);
    if (started.kind !== 'job') throw new Error('expected a job');
    return index.wait(started.job.id);
  };
  try {
    log(`indexing ${SOURCE} (copied to ${tree})`);
    const full = await run('bench');
    if (full.state !== 'done') throw new Error(`index failed: ${full.message ?? full.state}`);
    const dbBytes = statSync(join(dir, 'cairn.db')).size;
    const unchanged = await run('bench');
    const touched: number[] = [];
    for (const path of TOUCHED) {
      appendFileSync(join(tree, path), '\n# edited by the bench\n');
      const t = performance.now();
      const job = await run('bench');
      touched.push(performance.now() - t);
      log(`edited ${path}: ${job.files.indexed} re-indexed, job ${ms(job)} ms`);
    }
    const idle = await probe(store, null);
    const busy = run('second');
    const during = await probe(store, busy);
    const second = await busy;
    const result = {
      machine: machineInfo(),
      tree: SOURCE,
      files: full.files.indexed,
      lines: full.lines,
      chunks: full.chunks,
      fullMs: ms(full),
      linesPerSecond: full.rate.linesPerSecond,
      secondFullLinesPerSecond: second.rate.linesPerSecond,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      dbMiB: Math.round((dbBytes / 2 ** 20) * 10) / 10,
      unchangedMs: ms(unchanged),
      touchOneMs: {
        p50: Math.round(
          quantile(
            [...touched].sort((a, b) => a - b),
            0.5,
          ),
        ),
        all: touched.map(Math.round),
      },
      idle,
      during,
    };
    writeResult('indexer', result);
    await writeDocSection('indexer', render(result));
    log(`done: ${result.linesPerSecond} lines/s`);
  } finally {
    await index.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function render(r: {
  machine: ReturnType<typeof machineInfo>;
  tree: string;
  files: number;
  lines: number;
  chunks: number;
  fullMs: number;
  linesPerSecond: number;
  secondFullLinesPerSecond: number;
  maxRssMiB: number;
  dbMiB: number;
  unchangedMs: number;
  touchOneMs: { p50: number; all: number[] };
  idle: Awaited<ReturnType<typeof probe>>;
  during: Awaited<ReturnType<typeof probe>>;
}): string {
  const rows = [
    [
      'full index (worker thread, no embeddings)',
      `${r.fullMs} ms, ${r.linesPerSecond} lines/s (a second one while probed: ${r.secondFullLinesPerSecond})`,
    ],
    ['files / lines / chunks', `${r.files} / ${r.lines} / ${r.chunks}`],
    ['peak RSS (process and its worker threads)', `${r.maxRssMiB} MiB`],
    ['database after the index', `${r.dbMiB} MiB`],
    ['re-index, nothing changed (job)', `${r.unchangedMs} ms`],
    [
      're-index after editing one file (start → done, warm worker)',
      `p50 ${r.touchOneMs.p50} ms (${r.touchOneMs.all.join(', ')})`,
    ],
    [
      'another connection: read p50 / p99, idle → during an index',
      `${r.idle.readP50} / ${r.idle.readP99} ms → ${r.during.readP50} / ${r.during.readP99} ms`,
    ],
    [
      'another connection: small write p50 / p99, idle → during an index',
      `${r.idle.writeP50} / ${r.idle.writeP99} ms → ${r.during.writeP50} / ${r.during.writeP99} ms`,
    ],
  ];
  return `## Indexer

\`npm run bench -- indexer\` on ${r.tree} (copied to a temp folder), ${r.machine.date}, ${r.machine.cpus} × ${r.machine.cpuModel}, load ${r.machine.loadAvg1m}, commit ${r.machine.commit}. The indexer runs from sources (tsx) in the bench. "Editing one file" appends a comment line to it, so the job re-reads, re-chunks and rewrites that file.

${mdTable(['What', 'Measured'], rows, 2)}`;
}
