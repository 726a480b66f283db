// Per-connection flood control: a token bucket. A line costs one token; tokens refill at a
// steady rate up to the burst size. The connection waits for a token (fake lag) rather than
// dropping a line, and disconnects a client whose backlog passes its cap.

export interface FloodLimits {
  /** Lines accepted back to back before pacing starts. */
  burst: number;
  /** Lines per second after the burst. */
  perSecond: number;
  /** Lines waiting for tokens before the client is disconnected for flooding. */
  maxBacklog: number;
}

export const DEFAULT_FLOOD: FloodLimits = { burst: 40, perSecond: 10, maxBacklog: 200 };

export interface TokenBucket {
  /** Takes a token if one is available. */
  tryTake(): boolean;
  /** Milliseconds until the next token (0 when one is available). */
  waitMs(): number;
}

/** Creates a full bucket. `now` is injectable for tests. */
export function createTokenBucket(
  limits: Pick<FloodLimits, 'burst' | 'perSecond'>,
  now: () => number = () => performance.now(),
): TokenBucket {
  let tokens = limits.burst;
  let last = now();

  function refill(): void {
    const t = now();
    tokens = Math.min(limits.burst, tokens + ((t - last) / 1000) * limits.perSecond);
    last = t;
  }

  return {
    tryTake() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    waitMs() {
      refill();
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / limits.perSecond) * 1000);
    },
  };
}
