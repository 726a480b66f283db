// The vault bench (`npm run bench -- vault`): 10,000 generated markdown documents synced into a
// vault of `cairn serve` (compiled, over Streamable HTTP, no embeddings) through vault_sync;
// measures documents/s, an unchanged re-sync, the incremental re-sync after touching 10 files
// (and that only those were read), search and query p50/p99 over ~200 queries (bounded in count
// and time), the server's peak RSS and the database size. Writes bench/results/vault.json and
// the `vault` section of docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { machineInfo, writeDocSection, writeResult } from '../lib/report.js';
import { generateVault } from './generate.js';
import { queriesFrom, startVaultServer, syncRun, toolLatency, touch } from './measure.js';
import { renderVaultBench, type VaultBenchReport } from './render.js';

const DOCS = Number(process.env['CAIRN_BENCH_VAULT_DOCS'] ?? 10_000);
const TOUCHED = 10;
const QUERIES = 200;
/** Each tool's latency loop stops here even if queries are left. */
const LATENCY_BOUND_MS = 120_000;
const VAULT = 'bench';

const log = (line: string): void => void process.stderr.write(`[bench:vault] ${line}\n`);

export async function runVaultBench(): Promise<void> {
  const machine = machineInfo();
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-vault-'));
  const root = join(dir, 'docs');
  try {
    const t = performance.now();
    const corpus = generateVault(root, DOCS);
    log(
      `generated ${DOCS} documents (${(corpus.bytes / 2 ** 20).toFixed(1)} MiB) in ${Math.round(performance.now() - t)} ms`,
    );
    const s = await startVaultServer(dir);
    try {
      const full = await syncRun(s, VAULT, root);
      log(
        `full sync: ${full.added} documents, ${full.fragments} fragments in ${full.ms} ms (${full.docsPerSecond}/s)`,
      );
      const unchanged = await syncRun(s, VAULT, root);
      log(`unchanged re-sync: ${unchanged.ms} ms, ${unchanged.read} read`);
      const step = Math.floor(corpus.paths.length / TOUCHED);
      const touched = corpus.paths.filter((_, i) => i % step === 0).slice(0, TOUCHED);
      touch(root, touched);
      const incremental = await syncRun(s, VAULT, root);
      log(
        `after touching ${TOUCHED}: ${incremental.ms} ms, ${incremental.read} read, ${incremental.updated} updated`,
      );
      const queries = queriesFrom(root, corpus.paths, QUERIES);
      const search = await toolLatency(s, 'search', VAULT, queries, LATENCY_BOUND_MS);
      log(`search p50 ${search.p50Ms} ms, p99 ${search.p99Ms} ms over ${search.calls}`);
      const query = await toolLatency(s, 'query', VAULT, queries, LATENCY_BOUND_MS);
      log(`query p50 ${query.p50Ms} ms, p99 ${query.p99Ms} ms over ${query.calls}`);
      const report: VaultBenchReport = {
        bench: 'vault',
        machine,
        config: {
          documents: DOCS,
          corpusMiB: Math.round((corpus.bytes / 2 ** 20) * 10) / 10,
          touched: TOUCHED,
          queries: queries.length,
          latencyBoundMs: LATENCY_BOUND_MS,
          embeddings: 'none',
        },
        sync: { full, unchanged, incremental },
        latency: { search, query },
        server: { peakRssMiB: s.peakRssMiB() ?? null, dbMiB: s.dbMiB() },
      };
      const markdown = renderVaultBench(report);
      const path = writeResult('vault', report);
      await writeDocSection('vault', markdown);
      process.stdout.write(`${markdown}\n\nWrote ${path} and docs/benchmarks.md.\n`);
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
