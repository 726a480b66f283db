// Background upkeep a serving process runs: the claim-lease sweep, and the cancellation of
// pending approvals whose waiting process is gone (its approval lease lapsed).
import type { Core } from '../core/index.js';

/** Sweeps every quarter claim lease (at most every 30 s). Returns a stop function. */
export function startLeaseSweeper(core: Core): () => void {
  const every = Math.max(1000, Math.min(30_000, Math.floor(core.board.leaseMs / 4)));
  const timer = setInterval(() => {
    core.board.sweepExpiredLeases().then(
      (n) => {
        if (n > 0) core.logger.info({ returned: n }, 'expired claims returned to todo');
      },
      (err: unknown) => core.logger.warn({ err }, 'lease sweep failed'),
    );
    core.broker.sweepAbandonedApprovals().then(
      (n) => {
        if (n > 0) core.logger.info({ cancelled: n }, 'approvals whose waiter is gone cancelled');
      },
      (err: unknown) => core.logger.warn({ err }, 'approval sweep failed'),
    );
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
