// The pending approvals, live: refetched on every `approvals` event of /api/approvals/stream,
// on every (re)connect (backoff 1 s → 15 s) and when the tab becomes visible again. One hook in
// the shell feeds both the nav badge and the page.
import { useCallback, useEffect, useState } from 'react';

import type { Approval, Risk } from '../../../src/broker/model.js';
import { api, errorText } from '../api.js';
import { type LiveState, useLive } from '../board/use-live.js';
import type { Wire } from '../wire.js';

/**
 * A pending broker call as `GET /api/approvals` lists it: the broker's approval plus its tool's
 * risk (null for a tool hidden right now).
 */
export type PendingApproval = Wire<Approval> & { risk: Risk | null };

export interface Pending {
  approvals: PendingApproval[] | undefined;
  error: string | undefined;
  live: LiveState;
  refresh(): Promise<void>;
}

/** Reads `GET /api/approvals` (pending) whenever the approvals stream says it changed. */
export function usePending(): Pending {
  const [approvals, setApprovals] = useState<PendingApproval[]>();
  const [error, setError] = useState<string>();
  const refresh = useCallback(async () => {
    try {
      const reply = await api<{ approvals: PendingApproval[] }>('/api/approvals?limit=500');
      setApprovals(reply.approvals);
      setError(undefined);
    } catch (err) {
      setError(errorText(err));
    }
  }, []);
  const live = useLive('/api/approvals/stream', () => void refresh(), 'approvals');
  useEffect(() => {
    void refresh();
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refresh]);
  return { approvals, error, live, refresh };
}
