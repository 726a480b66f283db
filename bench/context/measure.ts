// The context bench's measurements through MCP: an index job end to end (index_repo waiting
// for it), another server's tool-call latency sampled while something runs, search_code
// latency, and waiting for the chunk embedding backlog with a time bound.
import { performance } from 'node:perf_hooks';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { quantile } from '../lib/measure.js';
import { call } from './serve.js';

/** The parts of index_repo's job status the bench reads. */
export interface Job {
  state: string;
  files: { indexed: number; unchanged: number; skipped: number };
  lines: number;
  chunks: number;
  rate: { linesPerSecond: number };
  startedAt: number | null;
  finishedAt: number | null;
  message: string | null;
}

export interface IndexRun {
  /** The index_repo call, request to answer. */
  callMs: number;
  /** The job's own start → finish. */
  jobMs: number;
  files: number;
  lines: number;
  chunks: number;
  linesPerSecond: number;
}

/** Calls index_repo and waits for its job (wait_seconds 600); throws unless it is done. */
export async function indexRun(client: Client, args: Record<string, unknown>): Promise<IndexRun> {
  const t = performance.now();
  const { job } = await call<{ job: Job }>(client, 'index_repo', { ...args, wait_seconds: 600 });
  const callMs = Math.round(performance.now() - t);
  if (job.state !== 'done') throw new Error(`index job ${job.state}: ${job.message ?? ''}`);
  const jobMs = (job.finishedAt ?? 0) - (job.startedAt ?? 0);
  return {
    callMs,
    jobMs,
    files: job.files.indexed,
    lines: job.lines,
    chunks: job.chunks,
    linesPerSecond: Math.round(job.lines / Math.max(callMs / 1000, 0.001)),
  };
}

export interface Latency {
  calls: number;
  p50Ms: number;
  p99Ms: number;
}

const round = (x: number): number => Math.round(x * 100) / 100;

export function latencyOf(times: number[]): Latency {
  times.sort((a, b) => a - b);
  return {
    calls: times.length,
    p50Ms: round(quantile(times, 0.5)),
    p99Ms: round(quantile(times, 0.99)),
  };
}

/**
 * Calls `probe` every `gapMs` until `until` settles (or `count` times when it is null), never
 * more than `maxCalls` times nor past `maxMs`; the latencies of the calls.
 */
export async function sample(
  probe: () => Promise<unknown>,
  until: Promise<unknown> | null,
  opts: { count?: number; gapMs?: number; maxCalls?: number; maxMs?: number } = {},
): Promise<Latency> {
  const { count = 200, gapMs = 10, maxCalls = 5000, maxMs = 300_000 } = opts;
  let over = until === null;
  void until?.then(
    () => (over = true),
    () => (over = true),
  );
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < maxCalls && performance.now() - started < maxMs; i++) {
    if (until === null ? i >= count : over) break;
    const t = performance.now();
    await probe();
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, gapMs));
  }
  return latencyOf(times);
}

/** search_code latency over `queries` (after a warm-up of ten), with the mean hit count. */
export async function searchLatency(
  client: Client,
  queries: readonly string[],
  extra: Record<string, unknown>,
): Promise<Latency & { meanResults: number; basis: string[] }> {
  const one = (query: string) =>
    call<{ results: { scoreBasis?: string }[] }>(client, 'search_code', {
      query,
      resource: 'code',
      ...extra,
    });
  for (const q of queries.slice(0, 10)) await one(q);
  const times: number[] = [];
  let results = 0;
  const basis = new Set<string>();
  for (const q of queries) {
    const t = performance.now();
    const r = await one(q);
    times.push(performance.now() - t);
    results += r.results.length;
    for (const hit of r.results) if (hit.scoreBasis !== undefined) basis.add(hit.scoreBasis);
  }
  return {
    ...latencyOf(times),
    meanResults: round(results / Math.max(times.length, 1)),
    basis: [...basis],
  };
}

export interface EmbedWait {
  chunks: number;
  embedded: number;
  /** From the index job's end until every chunk had a vector, or the bound. */
  ms: number;
  complete: boolean;
}

interface StatusAnswer {
  collections: { collection: string; embeddings: { chunks: number; embedded: number } | null }[];
}

/** Polls index_status until `collection`'s chunks all have vectors or `boundMs` passes. */
export async function waitForEmbeddings(
  client: Client,
  collection: string,
  boundMs: number,
): Promise<EmbedWait> {
  const t = performance.now();
  for (;;) {
    const s = await call<StatusAnswer>(client, 'index_status', { collection });
    const e = s.collections.find((c) => c.collection === collection)?.embeddings;
    if (e === null || e === undefined) throw new Error('index_status reports no embeddings');
    const ms = Math.round(performance.now() - t);
    const complete = e.embedded >= e.chunks;
    if (complete || ms >= boundMs) return { chunks: e.chunks, embedded: e.embedded, ms, complete };
    await new Promise((r) => setTimeout(r, 1000));
  }
}
