// Markdown for the `vault` bench section of docs/benchmarks.md: sync throughput, re-syncs, tool
// latency, the server's memory and the database size.
import type { Latency } from '../context/measure.js';
import { type MachineInfo, mdTable } from '../lib/report.js';
import type { SyncRun } from './measure.js';

export interface VaultBenchReport {
  bench: 'vault';
  machine: MachineInfo;
  config: {
    documents: number;
    corpusMiB: number;
    touched: number;
    queries: number;
    latencyBoundMs: number;
    embeddings: 'none';
  };
  sync: { full: SyncRun; unchanged: SyncRun; incremental: SyncRun };
  latency: { search: Latency & { meanResults: number }; query: Latency & { meanResults: number } };
  server: { peakRssMiB: number | null; dbMiB: number };
}

const int = (n: number): string => n.toLocaleString('en-US');

export function renderVaultBench(r: VaultBenchReport): string {
  const { full, unchanged, incremental } = r.sync;
  const m = r.machine;
  const syncRows = [
    [
      'full sync',
      int(full.ms),
      int(full.read),
      int(full.added + full.updated),
      int(full.fragments),
      int(full.docsPerSecond),
    ],
    [
      're-sync, nothing changed',
      int(unchanged.ms),
      int(unchanged.read),
      int(unchanged.added + unchanged.updated),
      int(unchanged.fragments),
      '–',
    ],
    [
      `re-sync after touching ${r.config.touched} files`,
      int(incremental.ms),
      int(incremental.read),
      int(incremental.added + incremental.updated),
      int(incremental.fragments),
      '–',
    ],
  ];
  const latencyRows = (['search', 'query'] as const).map((tool) => {
    const l = r.latency[tool];
    return [`\`${tool}\``, int(l.calls), `${l.p50Ms} ms`, `${l.p99Ms} ms`, String(l.meanResults)];
  });
  const onlyTouched = incremental.read === r.config.touched;
  return [
    '## Vault (10,000 documents)',
    '',
    `\`npm run bench -- vault\`: \`cairn serve --no-auth\` (compiled \`dist/\`, a child process with its own \`CAIRN_HOME\` and database, \`CAIRN_EMBEDDINGS=none\`), driven over Streamable HTTP on \`/api/mcp/vault\` through the SDK client. The corpus is ${int(r.config.documents)} markdown documents (${r.config.corpusMiB} MiB) from \`bench/vault/generate.ts\` (seeded: frontmatter, a title, sections of paragraphs, lists and code blocks, ~2.5 KB median), synced with one \`vault_sync\` call, timed request to answer.`,
    '',
    mdTable(
      ['Sync', 'ms', 'files read', 'documents written', 'fragments', 'documents/s'],
      syncRows,
    ),
    '',
    `The incremental re-sync read ${incremental.read} file(s) after ${r.config.touched} were changed on disk: ${onlyTouched ? 'only the touched ones' : '**not only the touched ones**'} (the rest are judged unchanged by size and mtime).`,
    '',
    mdTable(['Tool (limit 10, compact)', 'calls', 'p50', 'p99', 'mean results'], latencyRows),
    '',
    `Queries: the first section heading of one document in every ${Math.floor(r.config.documents / r.config.queries)} (${r.config.queries}), after ten warm-up calls; each loop stops at ${r.config.latencyBoundMs / 1000} s. \`query\` runs without vector legs here (no embedder), so its figure is BM25 + expansion + rerank. Server peak RSS ${r.server.peakRssMiB ?? 'n/a'} MiB; database ${r.server.dbMiB} MiB. Measured ${m.date.slice(0, 10)}, ${m.cpus} × ${m.cpuModel}, Node ${m.node}, load ${m.loadAvg1m}, commit ${m.commit}.`,
  ].join('\n');
}
