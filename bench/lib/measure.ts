// The measuring loop shared by every bench: N workers call in parallel loops for one window
// bounded by both time and call count, and the summary of one or more windows. Never asserts.
import { performance } from 'node:perf_hooks';

/** One measured window. Rates are completed calls per second of wall time. */
export interface Measurement {
  calls: number;
  errors: number;
  seconds: number;
  rate: number;
  p50Ms: number;
  p99Ms: number;
  /** Server-process CPU per call in µs (all server processes summed), when measurable. */
  serverCpuUs?: number;
  /** Bench-process (all clients) CPU per call in µs, when measured. */
  clientCpuUs?: number;
}

/** Bounds of one window: it stops at whichever comes first. */
export interface WindowBounds {
  /** Parallel loops; worker `i` is passed to `call`. */
  workers: number;
  ms: number;
  maxCalls: number;
}

/** One call; resolves true when it succeeded, false when it returned an error result. */
export type CallFn = (worker: number) => Promise<boolean>;

/** The q-quantile (0..1) of an ascending-sorted array, nearest-rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? 0;
}

const round = (n: number, digits: number): number => Number(n.toFixed(digits));

/** The raw samples of one window (latencies in ms). */
export interface Samples {
  latencies: number[];
  errors: number;
  seconds: number;
  /** Server and client CPU µs spent during the window, when measured. */
  serverCpuUs?: number;
  clientCpuUs?: number;
}

/** Runs `workers` parallel call loops until the time or count bound; never throws. */
export async function runWindow(
  call: CallFn,
  { workers, ms, maxCalls }: WindowBounds,
): Promise<Samples> {
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + ms;
  const loop = async (worker: number): Promise<void> => {
    while (issued < maxCalls && performance.now() < end) {
      issued++;
      const t0 = performance.now();
      const ok = await call(worker).catch(() => false);
      latencies.push(performance.now() - t0);
      if (!ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, i) => loop(i)));
  return { latencies, errors, seconds: (performance.now() - start) / 1000 };
}

/** A per-call average of a per-window total, if every window has it. */
function perCall(
  windows: readonly Samples[],
  calls: number,
  pick: (w: Samples) => number | undefined,
): number | undefined {
  if (calls === 0 || windows.some((w) => pick(w) === undefined)) return undefined;
  return Math.round(windows.reduce((n, w) => n + (pick(w) ?? 0), 0) / calls);
}

/** Summarises one or more windows' samples into a Measurement (calls and time are summed). */
export function summarise(...windows: readonly Samples[]): Measurement {
  const sorted = windows.flatMap((w) => w.latencies).sort((a, b) => a - b);
  const errors = windows.reduce((n, w) => n + w.errors, 0);
  const seconds = windows.reduce((n, w) => n + w.seconds, 0);
  const server = perCall(windows, sorted.length, (w) => w.serverCpuUs);
  const client = perCall(windows, sorted.length, (w) => w.clientCpuUs);
  return {
    calls: sorted.length,
    errors,
    seconds: round(seconds, 3),
    rate: round(seconds > 0 ? sorted.length / seconds : 0, 1),
    p50Ms: round(quantile(sorted, 0.5), 3),
    p99Ms: round(quantile(sorted, 0.99), 3),
    ...(server === undefined ? {} : { serverCpuUs: server }),
    ...(client === undefined ? {} : { clientCpuUs: client }),
  };
}
