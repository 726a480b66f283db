// The pending approvals, live: refetched on every `approvals` event of /api/approvals/stream,
// on every (re)connect (backoff 1 s → 15 s) and when the tab becomes visible again. One hook in
// the shell feeds both the nav badge and the page.
import { useCallback, useEffect, useState } from 'react';

import { api, errorText } from '../api.js';
import { type LiveState, useLive } from '../board/use-live.js';

export interface PendingApproval {
  id: string;
  callId: string;
  tool: string;
  caller: string;
  args: unknown;
  reason: string;
  /** The board task the call works for, when known (it shows in the board's Needs approval). */
  taskId: string | null;
  risk: string | null;
  createdAt: number;
  expiresAt: number;
}

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
