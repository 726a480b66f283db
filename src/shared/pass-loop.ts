// One background run of passes at a time: a wake while a run is going asks it for one more
// pass instead of starting a second; a failed run is remembered (until a run succeeds) and
// handed to `onError`. Shared by the embedding and fact-extraction backlogs. Pure: no I/O.

export interface PassLoop {
  /** Starts a run, or asks the current one for another pass; resolves with the items done. */
  run(): Promise<number>;
  /** The current run, if one is going (stopping awaits it). */
  current(): Promise<number> | undefined;
  /** The failure of the last finished run; undefined after a run that succeeded. */
  failure(): unknown;
}

export function passLoop(opts: {
  /** One pass; resolves with how many items it did. */
  pass: () => Promise<number>;
  stopped: () => boolean;
  /** The failure recorded when a pass rejects with nothing. */
  failed: string;
  onError?: ((err: unknown) => void) | undefined;
}): PassLoop {
  let running: Promise<number> | undefined;
  let again = false;
  let failure: unknown;

  async function passes(): Promise<number> {
    let total = 0;
    do {
      again = false;
      total += await opts.pass();
    } while (again && !opts.stopped());
    return total;
  }

  function run(): Promise<number> {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = passes()
      .then(
        (n) => {
          failure = undefined;
          return n;
        },
        (err: unknown) => {
          failure = err ?? new Error(opts.failed);
          opts.onError?.(err);
          return 0;
        },
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return { run, current: () => running, failure: () => failure };
}
