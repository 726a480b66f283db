// The code search bench: search_code's domain call (createCodeSearch) over /usr/lib/python3.11
// chunked into a real store: full-text latency p50/p99 (plain, filtered, a 100-result page with
// its byte budget, freshness re-checked on every call), then the chunk embedding backlog with the
// real local model over this repository's src/ and hybrid latency there. Writes
// bench/results/code-search.json and the `code-search` section of docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import type { Provenance } from '../../src/activity/index.js';
import {
  type CodeSearchInput,
  type CodeSearchOptions,
  createCodeEmbedWorker,
  createCodeSearch,
} from '../../src/code/index.js';
import { createLocalEmbedder } from '../../src/embed/index.js';
import { identifierWords } from '../../src/search/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { quantile } from '../lib/measure.js';
import { machineInfo, mdTable, ROOT, writeDocSection, writeResult } from '../lib/report.js';
import { buildCorpus } from './corpus.js';

const BIG_TREE = '/usr/lib/python3.11';
const SMALL_TREE = join(ROOT, 'src');
const QUERIES = 200;

const PROVENANCE: Provenance = {
  session_id: 'bench',
  repo_path: ROOT,
  worktree_id: 'main',
  agent_program: 'bench',
  delegated: false,
  timestamp: 0,
};

const log = (line: string): void => void process.stderr.write(`[bench:code-search] ${line}\n`);

/** `n` queries: symbols of the corpus as words (every `step`-th), plus some plain phrases. */
function queriesOf(symbols: readonly string[], n: number): string[] {
  const step = Math.max(1, Math.floor(symbols.length / n));
  const words = symbols.filter((_, i) => i % step === 0).map(identifierWords);
  const phrases = ['parse an email header', 'read a file in chunks', 'retry on timeout'];
  return [...phrases, ...words].filter((q) => q !== '').slice(0, n);
}

interface Latency {
  case: string;
  calls: number;
  p50Ms: number;
  p99Ms: number;
  meanResults: number;
  truncated: number;
}

async function measure(
  store: Store,
  name: string,
  options: CodeSearchOptions,
  queries: readonly string[],
  extra: Partial<CodeSearchInput> = {},
): Promise<Latency> {
  const search = createCodeSearch(store, options);
  for (const query of queries.slice(0, 10)) await search.search({ query, ...extra }, PROVENANCE);
  const times: number[] = [];
  let results = 0;
  let truncated = 0;
  for (const query of queries) {
    const t = performance.now();
    const r = await search.search({ query, ...extra }, PROVENANCE);
    times.push(performance.now() - t);
    results += r.results.length;
    if (r.truncated) truncated += 1;
  }
  times.sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 10) / 10;
  const out = {
    case: name,
    calls: times.length,
    p50Ms: round(quantile(times, 0.5)),
    p99Ms: round(quantile(times, 0.99)),
    meanResults: round(results / times.length),
    truncated,
  };
  log(`${name}: p50 ${out.p50Ms} ms, p99 ${out.p99Ms} ms`);
  return out;
}

async function bigTree(dir: string) {
  const store = await openSqliteStore(join(dir, 'big.db'));
  try {
    const t = performance.now();
    const corpus = await buildCorpus(store, 'python', BIG_TREE);
    const buildS = (performance.now() - t) / 1000;
    log(`${BIG_TREE}: ${corpus.files} files, ${corpus.chunks} chunks in ${buildS.toFixed(1)} s`);
    const queries = queriesOf(corpus.symbols, QUERIES);
    const fts = { embedder: null };
    const latency = [
      await measure(store, 'fts, limit 10', fts, queries),
      await measure(store, 'fts, filters lang:python path:email/', fts, queries, {
        filters: ['lang:python', 'path:email/'],
      }),
      await measure(store, 'fts, limit 100 (48 KiB budget)', fts, queries, { limit: 100 }),
      await measure(
        store,
        'fts, freshness stat every call',
        { ...fts, freshnessTtlMs: 0 },
        queries,
      ),
    ];
    const { files, chunks, lines } = corpus;
    return { tree: BIG_TREE, files, chunks, lines, buildS: Math.round(buildS), latency };
  } finally {
    await store.close();
  }
}

async function smallTree(dir: string) {
  const store = await openSqliteStore(join(dir, 'small.db'));
  const embedder = createLocalEmbedder();
  try {
    const corpus = await buildCorpus(store, 'cairn', SMALL_TREE);
    await embedder.embed(['warm up']);
    const t = performance.now();
    const embedded = await createCodeEmbedWorker({ store, embedder }).drain();
    const embedS = (performance.now() - t) / 1000;
    const rate = Math.round(embedded / embedS);
    log(`${SMALL_TREE}: ${embedded} chunks embedded in ${embedS.toFixed(1)} s (${rate}/s)`);
    const queries = queriesOf(corpus.symbols, 100);
    const latency = [
      await measure(store, 'fts (src/)', { embedder: null }, queries),
      await measure(store, 'hybrid fused (src/)', { embedder }, queries),
    ];
    return { tree: 'src/', chunks: corpus.chunks, embedded, chunksPerSecond: rate, latency };
  } finally {
    await embedder.close();
    await store.close();
  }
}

function render(result: {
  big: Awaited<ReturnType<typeof bigTree>>;
  small: Awaited<ReturnType<typeof smallTree>>;
  machine: ReturnType<typeof machineInfo>;
}): string {
  const { big, small } = result;
  const rows = [...big.latency, ...small.latency].map((l) => [
    l.case,
    String(l.calls),
    String(l.p50Ms),
    String(l.p99Ms),
    String(l.meanResults),
    String(l.truncated),
  ]);
  return `## Code search

\`npm run bench -- code-search\`: \`createCodeSearch(store).search\` called in-process, one call
at a time, on ${big.tree} (${big.files} files, ${big.lines} lines, ${big.chunks} chunks, written
by the bench's own chunk-and-insert fixture) and on this repository's \`src/\` (${small.chunks}
chunks) for hybrid. Every call reads the index state, ranks, builds snippets and writes its
\`code_searches\` row. ${result.machine.cpus} cores, load ${result.machine.loadAvg1m}.

${mdTable(['Case', 'Calls', 'p50 ms', 'p99 ms', 'Mean results', 'Truncated'], rows)}

Chunk embedding backlog with the local model: ${small.embedded} chunks in the background loop at
${small.chunksPerSecond} chunks/s (batches of 16, no rest).`;
}

export async function runCodeSearchBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-code-search-'));
  try {
    const big = await bigTree(dir);
    const small = await smallTree(dir);
    const result = { machine: machineInfo(), big, small };
    writeResult('code-search', result);
    await writeDocSection('code-search', render(result));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
