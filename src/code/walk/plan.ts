// The dry run: what an index would cover (files, bytes, lines, languages), what it would skip
// and why, and an estimate of the time. Reads every file once to count lines; writes nothing.
import { createReadStream } from 'node:fs';

import type { SkipReason, WalkOptions, WalkResult } from './types.js';
import { walkRepository } from './walker.js';

/**
 * Lines per second the estimate assumes: the indexer's target without embeddings (issue 12,
 * "Performance"). An assumption, not a measurement; replace it once the bench measures one.
 */
export const ESTIMATE_LINES_PER_SECOND = 20_000;
/** Paths kept per skip reason in a plan. */
export const PLAN_SAMPLE_SIZE = 5;

/** What an index of `options.path` would do. */
export interface IndexPlan {
  root: string;
  mode: WalkResult['mode'];
  files: number;
  bytes: number;
  lines: number;
  /** Files per language; plain text under `text`. */
  languages: Record<string, number>;
  skipped: {
    total: number;
    byReason: Partial<Record<SkipReason, { count: number; sample: string[] }>>;
  };
  estimate: { seconds: number; linesPerSecond: number; basis: string };
  nothingToIndex: WalkResult['nothingToIndex'];
  truncated: boolean;
}

async function countLines(path: string): Promise<number> {
  let lines = 0;
  let last = 10;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    if (chunk.length > 0) last = chunk[chunk.length - 1] ?? 10;
  }
  return last === 10 ? lines : lines + 1;
}

function skippedSummary(walk: WalkResult): IndexPlan['skipped'] {
  const byReason: IndexPlan['skipped']['byReason'] = {};
  let total = 0;
  for (const [reason, count] of Object.entries(walk.skippedByReason) as [SkipReason, number][]) {
    byReason[reason] = { count, sample: [] };
    total += count;
  }
  for (const entry of walk.skipped) {
    const bucket = byReason[entry.reason];
    if (bucket !== undefined && bucket.sample.length < PLAN_SAMPLE_SIZE)
      bucket.sample.push(entry.path);
  }
  return { total, byReason };
}

/**
 * Plans an index without writing one: walks like walkRepository (same options, same errors),
 * then counts the lines of every file. The time is an estimate from ESTIMATE_LINES_PER_SECOND.
 */
export async function planIndex(options: WalkOptions): Promise<IndexPlan> {
  const walk = await walkRepository(options);
  const languages: Record<string, number> = {};
  let bytes = 0;
  let lines = 0;
  for (const file of walk.files) {
    options.signal?.throwIfAborted();
    const key = file.language ?? 'text';
    languages[key] = (languages[key] ?? 0) + 1;
    bytes += file.size;
    lines += await countLines(file.absPath).catch(() => 0);
  }
  const seconds = Math.round((lines / ESTIMATE_LINES_PER_SECOND) * 10) / 10;
  return {
    root: walk.root,
    mode: walk.mode,
    files: walk.files.length,
    bytes,
    lines,
    languages,
    skipped: skippedSummary(walk),
    estimate: {
      seconds,
      linesPerSecond: ESTIMATE_LINES_PER_SECOND,
      basis: `an estimate: ${lines} lines at an assumed ${ESTIMATE_LINES_PER_SECOND} lines/s (no embeddings), not a measurement`,
    },
    nothingToIndex: walk.nothingToIndex,
    truncated: walk.truncated,
  };
}
