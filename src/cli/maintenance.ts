// Background upkeep a serving process runs: the claim-lease sweep.
import type { Core } from '../core/index.js';

/** Sweeps expired claims every quarter lease (at most every 30 s). Returns a stop function. */
export function startLeaseSweeper(core: Core): () => void {
  const every = Math.max(1000, Math.min(30_000, Math.floor(core.board.leaseMs / 4)));
  const timer = setInterval(() => {
    core.board.sweepExpiredLeases().then(
      (n) => {
        if (n > 0) core.logger.info({ returned: n }, 'expired claims returned to todo');
      },
      (err: unknown) => core.logger.warn({ err }, 'lease sweep failed'),
    );
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
