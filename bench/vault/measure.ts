// The vault bench's server and measurements: a real `cairn serve --no-auth` child (compiled
// dist/, its own CAIRN_HOME, no embeddings) with an SDK client on /api/mcp/vault, vault_sync
// timed end to end, and search / query latency over a bounded set of queries. Loopback only.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { type Latency, latencyOf } from '../context/measure.js';
import { call, startServer } from '../context/serve.js';
import { type BenchClient, type ChildServer, connectHttp } from '../lib/connect.js';

export interface VaultServer {
  server: ChildServer;
  vault: BenchClient;
  peakRssMiB(): number | undefined;
  dbMiB(): number;
  close(): Promise<void>;
}

/** Starts `cairn serve` (as the context bench does) without embeddings; a client on /api/mcp/vault. */
export async function startVaultServer(dir: string): Promise<VaultServer> {
  const s = await startServer(dir, 'vault', 'none');
  const vault = await connectHttp(`${s.server.url.replace(/\/$/, '')}/api/mcp/vault`);
  return {
    server: s.server,
    vault,
    peakRssMiB: s.peakRssMiB,
    dbMiB: s.dbMiB,
    close: async () => {
      await vault.close();
      await s.close();
    },
  };
}

export interface SyncRun {
  ms: number;
  added: number;
  updated: number;
  unchanged: number;
  read: number;
  fragments: number;
  docsPerSecond: number;
}

/** One vault_sync call, timed request to answer. */
export async function syncRun(s: VaultServer, vault: string, root: string): Promise<SyncRun> {
  const t = performance.now();
  const r = await call<Omit<SyncRun, 'ms' | 'docsPerSecond'>>(s.vault.client, 'vault_sync', {
    vault,
    content_root: root,
  });
  const ms = Math.round(performance.now() - t);
  const written = r.added + r.updated;
  return {
    ms,
    added: r.added,
    updated: r.updated,
    unchanged: r.unchanged,
    read: r.read,
    fragments: r.fragments,
    docsPerSecond: Math.round(written / Math.max(ms / 1000, 0.001)),
  };
}

/** Appends a line to each of `paths` (under `root`): a real content change, new mtime. */
export function touch(root: string, paths: readonly string[]): void {
  for (const p of paths)
    appendFileSync(join(root, p), `\nTouched by the bench at ${Date.now()}.\n`);
}

/** Queries from the corpus: the first section heading of every `step`-th document, `n` at most. */
export function queriesFrom(root: string, paths: readonly string[], n: number): string[] {
  const step = Math.max(1, Math.floor(paths.length / n));
  const out: string[] = [];
  for (let i = 0; i < paths.length && out.length < n; i += step) {
    const text = readFileSync(join(root, paths[i] ?? ''), 'utf8');
    const heading = /^## (.+)$/m.exec(text)?.[1];
    if (heading !== undefined) out.push(heading);
  }
  return out;
}

/** `tool` latency over `queries` (after ten warm-up calls), never past `maxMs`. */
export async function toolLatency(
  s: VaultServer,
  tool: string,
  vault: string,
  queries: readonly string[],
  maxMs: number,
): Promise<Latency & { meanResults: number }> {
  const one = (query: string) =>
    call<{ results: unknown[] }>(s.vault.client, tool, { query, vault, limit: 10, compact: true });
  for (const q of queries.slice(0, 10)) await one(q);
  const times: number[] = [];
  let results = 0;
  const started = performance.now();
  for (const q of queries) {
    if (performance.now() - started > maxMs) break;
    const t = performance.now();
    const r = await one(q);
    times.push(performance.now() - t);
    results += r.results.length;
  }
  return {
    ...latencyOf(times),
    meanResults: Math.round((results / Math.max(times.length, 1)) * 10) / 10,
  };
}
