// Live approvals for the dashboard: `GET /api/approvals/stream` (Server-Sent Events). One shared
// poller per HTTP service reads the pending approvals while at least one page listens (the CLI
// and other processes decide too, so in-process hooks would miss them); each change of the
// pending set is one `approvals` event. No approval data rides the stream: the page refetches.
// An approval signal reads at once; where it reaches every replica (PostgreSQL) the poll slows
// to a safety poll (it still catches an expiry nobody writes).
import type { Broker } from '../broker/index.js';
import { SIGNAL_SAFETY_POLL_MS } from '../store/index.js';
import { type BoardWatch, createBoardWatch } from './board-stream.js';

export type ApprovalsWatch = BoardWatch;

/** The pending set as a string: ids and expiries, so a new, decided or expired call changes it. */
async function pendingMark(broker: Pick<Broker, 'listApprovals'>): Promise<string> {
  const pending = await broker.listApprovals({ status: 'pending', limit: 500 });
  return pending.map((a) => `${a.id}@${a.expiresAt}`).join(',');
}

/** Builds the shared poller of the approvals table; it runs only while someone is subscribed. */
export function createApprovalsWatch(
  broker: Pick<Broker, 'listApprovals' | 'onApprovalSignal' | 'approvalSignalsEverywhere'>,
  options: { intervalMs?: number; onError(err: unknown): void },
): ApprovalsWatch {
  const safety = broker.approvalSignalsEverywhere ? SIGNAL_SAFETY_POLL_MS : undefined;
  return createBoardWatch(
    { changeMark: () => pendingMark(broker) },
    {
      ...options,
      intervalMs: options.intervalMs ?? safety ?? 250,
      wake: (fn) => broker.onApprovalSignal(fn),
    },
  );
}
