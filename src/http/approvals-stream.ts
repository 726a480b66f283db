// Live approvals for the dashboard: `GET /api/approvals/stream` (Server-Sent Events). One shared
// poller per HTTP service reads the pending approvals while at least one page listens (the CLI
// and other processes decide too, so in-process hooks would miss them); each change of the
// pending set is one `approvals` event. No approval data rides the stream: the page refetches.
import type { Broker } from '../broker/index.js';
import { type BoardWatch, createBoardWatch } from './board-stream.js';

export type ApprovalsWatch = BoardWatch;

/** The pending set as a string: ids and expiries, so a new, decided or expired call changes it. */
async function pendingMark(broker: Pick<Broker, 'listApprovals'>): Promise<string> {
  const pending = await broker.listApprovals({ status: 'pending', limit: 500 });
  return pending.map((a) => `${a.id}@${a.expiresAt}`).join(',');
}

/** Builds the shared poller of the approvals table; it runs only while someone is subscribed. */
export function createApprovalsWatch(
  broker: Pick<Broker, 'listApprovals'>,
  options: { intervalMs?: number; onError(err: unknown): void },
): ApprovalsWatch {
  return createBoardWatch({ changeMark: () => pendingMark(broker) }, options);
}
