// secretlint 11 profiles every lint whether or not anyone reads the profile: a process-wide
// PerformanceObserver keeps every mark in arrays it scans on each new mark, and Node keeps the
// marks too. In a long-lived server each scrub got slower with every save (quadratic over the
// process's life) and the heap only grew (upstream secretlint#1633, fixed in a later major).
// This forgets the profile once no lint is running. Drop it when secretlint is upgraded.
import { performance } from 'node:perf_hooks';

import { secretLintProfiler } from '@secretlint/profiler';

/** The profiler's private buffers (declared private in its types, plain arrays at run time). */
interface ProfilerBuffers {
  entries?: unknown[];
  measures?: unknown[];
  executionPromises?: unknown[];
}

const OWN_PREFIX = '@core>';
let running = 0;
let started = 0;
let sweepQueued = false;

function forget(): void {
  const buffers = secretLintProfiler as unknown as ProfilerBuffers;
  for (const list of [buffers.entries, buffers.measures, buffers.executionPromises]) {
    if (Array.isArray(list)) list.length = 0;
  }
  const marks = new Set<string>();
  for (const entry of performance.getEntriesByType('mark')) {
    if (entry.name.startsWith(OWN_PREFIX)) marks.add(entry.name);
  }
  for (const name of marks) performance.clearMarks(name);
  const measures = new Set<string>();
  for (const entry of performance.getEntriesByType('measure')) {
    if (entry.name.startsWith(OWN_PREFIX)) measures.add(entry.name);
  }
  for (const name of measures) performance.clearMeasures(name);
}

/**
 * Sweeps on a later turn. The observer delivers marks from an immediate queued when they were
 * made, and its measure() calls need both marks, so clearing is safe only when no lint ran
 * since this sweep was queued (every earlier delivery has then happened) and none is running.
 */
function schedule(): void {
  if (sweepQueued) return;
  sweepQueued = true;
  const seen = started;
  setImmediate(() => {
    sweepQueued = false;
    if (running > 0) return; // the running lint schedules again when it ends
    if (started !== seen) schedule();
    else forget();
  });
}

/** Runs one secretlint call, then lets the profiler's records go once lints are idle. */
export async function withProfilerReset<T>(lint: () => Promise<T>): Promise<T> {
  running++;
  started++;
  try {
    return await lint();
  } finally {
    running--;
    schedule();
  }
}
