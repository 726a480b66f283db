// One run at a time: a call while a run is under way joins it instead of starting another
// (the postings drain of both backends).

/** Wraps `run` so concurrent callers share one run; the next call after it settles starts anew. */
export interface SingleFlight {
  /** Starts a run unless one is under way; resolves (or rejects) with the run. */
  start(): Promise<void>;
  /** Resolves once the run under way, if any, has settled (never rejects). */
  settled(): Promise<void>;
}

export function singleFlight(run: () => Promise<void>): SingleFlight {
  let running: Promise<void> | null = null;
  return {
    start() {
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
    settled: () => running?.catch(() => undefined) ?? Promise.resolve(),
  };
}
