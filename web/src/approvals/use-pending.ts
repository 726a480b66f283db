// The pending approvals, polled once a second while the page is visible (and at once when it
// becomes visible again). One poller in the shell feeds both the nav badge and the page.
import { useCallback, useEffect, useState } from 'react';

import { api, errorText } from '../api.js';

export interface PendingApproval {
  id: string;
  callId: string;
  tool: string;
  caller: string;
  args: unknown;
  reason: string;
  risk: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface Pending {
  approvals: PendingApproval[] | undefined;
  error: string | undefined;
  refresh(): Promise<void>;
}

export const POLL_MS = 1000;

/** Polls `GET /api/approvals` (status pending) every POLL_MS while the tab is visible. */
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
  useEffect(() => {
    void refresh();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, POLL_MS);
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh]);
  return { approvals, error, refresh };
}
