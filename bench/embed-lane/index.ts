// The embedding priority lane (`npm run bench -- embed-lane`): how long a query embedding waits
// on the local model while the background backlogs embed, in one run: idle (no background),
// the old way (background calls as plain FIFO batches of 16), the lane with background slices
// of 16, and the lane with the default slices of 4. Three background loops stand for the
// memory, code and vault backlogs, each embedding batches of 16 code chunks from this repo.
// Reports query p50/p99 and background texts/s per setting. Bounded in count and time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createLocalEmbedder, type EmbedCallOptions } from '../../src/embed/index.js';
import { quantile } from '../lib/measure.js';
import { machineInfo, mdTable, ROOT, writeDocSection, writeResult } from '../lib/report.js';

const QUERIES = 60;
const QUERY_GAP_MS = 100;
/** Each setting stops here even if queries are left. */
const SETTING_BOUND_MS = 60_000;
const LOOPS = 3;
const BATCH = 16;

const log = (line: string): void => void process.stderr.write(`[bench:embed-lane] ${line}\n`);

interface Setting {
  name: string;
  /** How the background loops call embed; null: no background at all. */
  background: EmbedCallOptions | null;
  backgroundSlice: number;
}

const SETTINGS: readonly Setting[] = [
  { name: 'idle (no background)', background: null, backgroundSlice: 4 },
  { name: 'before: FIFO, batches of 16', background: {}, backgroundSlice: 16 },
  {
    name: 'lane, background slices of 16',
    background: { priority: 'background' },
    backgroundSlice: 16,
  },
  {
    name: 'lane, background slices of 4 (default)',
    background: { priority: 'background' },
    backgroundSlice: 4,
  },
];

interface Row {
  setting: string;
  queries: number;
  p50Ms: number;
  p99Ms: number;
  backgroundTextsPerSecond: number | null;
}

/** Chunks of ~40 lines from this repo's src/**.ts files: the texts the code backlog embeds. */
function codeChunks(limit: number): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (out.length >= limit) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const lines = readFileSync(path, 'utf8').split('\n');
        for (let i = 0; i < lines.length && out.length < limit; i += 40) {
          out.push(
            lines
              .slice(i, i + 40)
              .join('\n')
              .slice(0, 2000),
          );
        }
      }
    }
  };
  walk(join(ROOT, 'src'));
  return out;
}

async function measure(
  setting: Setting,
  chunks: readonly string[],
  queries: readonly string[],
): Promise<Row> {
  const embedder = createLocalEmbedder({ backgroundSlice: setting.backgroundSlice });
  await embedder.ready();
  let stop = false;
  let embedded = 0;
  const started = performance.now();
  const loops =
    setting.background === null
      ? []
      : Array.from({ length: LOOPS }, async (_, loop) => {
          for (
            let i = loop * BATCH;
            !stop;
            i = (i + LOOPS * BATCH) % Math.max(1, chunks.length - BATCH)
          ) {
            await embedder.embed(chunks.slice(i, i + BATCH), setting.background ?? {});
            embedded += BATCH;
          }
        });
  const latencies: number[] = [];
  try {
    for (const q of queries) {
      if (performance.now() - started > SETTING_BOUND_MS) break;
      await new Promise((r) => setTimeout(r, QUERY_GAP_MS));
      const t = performance.now();
      await embedder.embed([q]);
      latencies.push(performance.now() - t);
    }
  } finally {
    stop = true;
    await Promise.all(loops);
  }
  const seconds = (performance.now() - started) / 1000;
  await embedder.close();
  latencies.sort((a, b) => a - b);
  const row: Row = {
    setting: setting.name,
    queries: latencies.length,
    p50Ms: Math.round(quantile(latencies, 0.5)),
    p99Ms: Math.round(quantile(latencies, 0.99)),
    backgroundTextsPerSecond:
      setting.background === null ? null : Math.round((embedded / seconds) * 10) / 10,
  };
  log(
    `${row.setting}: p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, background ${row.backgroundTextsPerSecond ?? '—'}/s`,
  );
  return row;
}

export async function runEmbedLaneBench(): Promise<void> {
  const machine = machineInfo();
  const chunks = codeChunks(2_000);
  const queries = Array.from(
    { length: QUERIES },
    (_, i) =>
      `how does the ${['store', 'index', 'search', 'vault', 'board'][i % 5]} handle item ${i}`,
  );
  const rows: Row[] = [];
  for (const setting of SETTINGS) rows.push(await measure(setting, chunks, queries));
  writeResult('embed-lane', { machine, loops: LOOPS, batch: BATCH, rows });
  const idle = rows[0]?.p99Ms ?? 0;
  const table = mdTable(
    ['setting', 'queries', 'query p50 ms', 'query p99 ms', 'p99 vs idle', 'background texts/s'],
    rows.map((r) => [
      r.setting,
      String(r.queries),
      String(r.p50Ms),
      String(r.p99Ms),
      idle > 0 ? `${(r.p99Ms / idle).toFixed(1)}×` : '—',
      r.backgroundTextsPerSecond === null ? '—' : String(r.backgroundTextsPerSecond),
    ]),
  );
  await writeDocSection(
    'embed-lane',
    `## Embedding priority lane (local model)

A query embedding on the local model while ${LOOPS} background loops (the memory, code and vault
backlogs) embed batches of ${BATCH} code chunks. One run, ${machine.cpus} cores, load
${machine.loadAvg1m}, commit ${machine.commit}. Background loops call with
\`priority: 'background'\` except in the "before" row, which is how they called before the lane.

${table}`,
  );
}
