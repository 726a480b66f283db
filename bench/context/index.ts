// The context bench (`npm run bench -- context`): the context server as users run it (`cairn
// serve`, compiled, over Streamable HTTP), driven through the SDK like an agent. Indexes
// /usr/lib/python3.11 (copied) and a git clone of this repository without embeddings, then the
// clone again on a server with the local model; measures lines/s end to end, re-index after
// touching one file, search_code p50/p99 (fts, then hybrid), the tasks server's list_tasks
// latency idle and while an index is built and while chunks embed, peak RSS and database size.
// Writes bench/results/context.json and the `context` section of docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { identifierWords } from '../../src/search/index.js';
import { machineInfo, ROOT, writeDocSection, writeResult } from '../lib/report.js';
import { indexRun, sample, searchLatency, waitForEmbeddings } from './measure.js';
import { render } from './render.js';
import { type BenchServer, call, startServer } from './serve.js';

const PYTHON = process.env['CAIRN_BENCH_INDEX_TREE'] ?? '/usr/lib/python3.11';
const TOUCHED = ['os.py', 'ast.py', 'typing.py', 'json/decoder.py', 'argparse.py'];
/**
 * How long the bench waits for the chunk embedding backlog of one collection: long enough for
 * this repository's chunks at the local model's background rate (about 8 chunks/s on 2 cores),
 * so lines/s with embeddings is measured, not projected. `CAIRN_BENCH_EMBED_BOUND_S` changes it.
 */
const EMBED_BOUND_MS = Number(process.env['CAIRN_BENCH_EMBED_BOUND_S'] ?? 1200) * 1000;
const QUERIES = 200;

const log = (line: string): void => void process.stderr.write(`[bench:context] ${line}\n`);

/** Up to `n` search queries: definition names found under `dir` as words, and a few phrases. */
function queriesFrom(dir: string, pattern: RegExp, ext: string, n: number): string[] {
  const names: string[] = [];
  const walk = (d: string, depth: number): void => {
    if (depth > 4 || names.length > n * 20) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === 'test') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.name.endsWith(ext)) {
        for (const m of readFileSync(p, 'utf8').matchAll(pattern)) names.push(m[1] ?? '');
      }
    }
  };
  walk(dir, 0);
  const step = Math.max(1, Math.floor(names.length / n));
  const words = names.filter((_, i) => i % step === 0).map(identifierWords);
  const phrases = ['parse an email header', 'read a file in chunks', 'retry on timeout'];
  return [...phrases, ...words].filter((q) => q.trim() !== '').slice(0, n);
}

const listTasks = (s: BenchServer) => () => call(s.tasks.client, 'list_tasks', {});

async function withoutEmbeddings(dir: string, python: string, clone: string) {
  const s = await startServer(dir, 'plain', 'none');
  try {
    const idle = await sample(listTasks(s), null, { count: 300 });
    log(`idle list_tasks p50 ${idle.p50Ms} ms`);
    const busy = indexRun(s.context.client, { path: python, collection: 'python' });
    const duringIndex = await sample(listTasks(s), busy);
    const full = await busy;
    log(`list_tasks while indexing p50 ${duringIndex.p50Ms} ms, p99 ${duringIndex.p99Ms} ms`);
    log(`python: ${full.lines} lines in ${full.callMs} ms (${full.linesPerSecond}/s)`);
    const unchanged = await indexRun(s.context.client, { path: python, collection: 'python' });
    const touched: number[] = [];
    for (const file of TOUCHED) {
      appendFileSync(join(python, file), '\n# edited by the bench\n');
      touched.push(
        (await indexRun(s.context.client, { path: python, collection: 'python' })).callMs,
      );
    }
    log(`touch one file: ${touched.join(', ')} ms`);
    const pyQueries = queriesFrom(python, /^\s*def (\w+)/gm, '.py', QUERIES);
    const fts = await searchLatency(s.context.client, pyQueries, { collection: 'python' });
    const filtered = await searchLatency(s.context.client, pyQueries, {
      collection: 'python',
      filters: ['path:email/'],
    });
    log(`search fts p50 ${fts.p50Ms} ms, p99 ${fts.p99Ms} ms`);
    const repo = await indexRun(s.context.client, { path: clone, collection: 'cairn' });
    const git = await indexRun(s.context.client, {
      action: 'git_index',
      path: clone,
      collection: 'cairn-git',
      include_commits: true,
    });
    log(`cairn: ${repo.linesPerSecond} lines/s (work tree), ${git.linesPerSecond} (git_index)`);
    return {
      idle,
      duringIndex,
      python: full,
      unchangedMs: unchanged.callMs,
      touchOneMs: touched,
      search: { fts, filtered, queries: pyQueries.length },
      repo,
      git,
      peakRssMiB: s.peakRssMiB(),
      dbMiB: s.dbMiB(),
    };
  } finally {
    await s.close();
  }
}

async function withEmbeddings(dir: string, clone: string) {
  const s = await startServer(dir, 'embed', 'local');
  try {
    const idle = await sample(listTasks(s), null, { count: 300 });
    const index = await indexRun(s.context.client, { path: clone, collection: 'cairn' });
    const waiting = waitForEmbeddings(s.context.client, 'cairn', EMBED_BOUND_MS);
    const duringEmbed = await sample(listTasks(s), waiting, { gapMs: 20 });
    const embed = await waiting;
    const totalS = (index.callMs + embed.ms) / 1000;
    log(`embedded ${embed.embedded}/${embed.chunks} in ${embed.ms} ms`);
    const queries = queriesFrom(join(clone, 'src'), /function (\w+)/g, '.ts', 100);
    const hybrid = await searchLatency(s.context.client, queries, { collection: 'cairn' });
    return {
      idle,
      duringEmbed,
      index,
      embed,
      chunksPerSecond: Math.round((embed.embedded / Math.max(embed.ms / 1000, 0.001)) * 10) / 10,
      linesPerSecond: embed.complete ? Math.round(index.lines / totalS) : null,
      hybrid,
      peakRssMiB: s.peakRssMiB(),
      dbMiB: s.dbMiB(),
    };
  } finally {
    await s.close();
  }
}

export async function runContextBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-context-'));
  try {
    const python = join(dir, 'python');
    cpSync(PYTHON, python, { recursive: true });
    const clone = join(dir, 'cairn');
    execFileSync('git', ['clone', '-q', '--no-hardlinks', ROOT, clone], { timeout: 120_000 });
    log(`copied ${PYTHON} and cloned ${ROOT} into ${dir}`);
    const plain = await withoutEmbeddings(dir, python, clone);
    const embedded = await withEmbeddings(dir, clone);
    const result = { machine: machineInfo(), tree: PYTHON, plain, embedded };
    writeResult('context', result);
    await writeDocSection('context', render(result, EMBED_BOUND_MS));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
