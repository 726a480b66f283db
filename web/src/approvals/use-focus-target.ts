// The approval the URL names (`/approvals?id=<id>`, from the board's links): while it is
// pending the page focuses its card; once it is not (decided, expired, cancelled, unknown) a
// sentence says what became of it, rather than the link landing nowhere.
import { useCallback, useEffect, useState } from 'react';

import type { Approval } from '../../../src/broker/model.js';
import { api, ApiError, errorText } from '../api.js';
import type { Wire } from '../wire.js';
import { linkedApprovalId } from './links.js';
import type { PendingApproval } from './use-pending.js';

export interface FocusTarget {
  /** The approval to focus; null when the URL names none (or the page decided it). */
  id: string | null;
  /** What became of the linked approval when it is not pending, once known. */
  gone: string | undefined;
  /** Forgets the target and drops it from the URL (the page just decided it). */
  clear(): void;
}

const time = (iso: string): string => new Date(iso).toLocaleTimeString();

const DECIDED: Record<string, string> = {
  allow_once: 'approved once',
  allow_always: 'approved always',
  deny: 'denied',
};

/** "approved once by dashboard at 10:42:07", "expired at …", …; undefined while pending. */
function fate(a: Wire<Approval>): string | undefined {
  const by = a.decidedBy === null ? '' : ` by ${a.decidedBy}`;
  const at = a.decidedAt === null ? '' : ` at ${time(a.decidedAt)}`;
  switch (a.status) {
    case 'pending':
      return undefined;
    case 'allowed':
    case 'denied':
      return `${DECIDED[a.decision ?? ''] ?? a.status}${by}${at}`;
    case 'expired':
      return `it expired at ${time(a.expiresAt)} without a decision`;
    case 'cancelled':
      return `the call ended before anyone decided${at}`;
  }
}

/** The sentence for approval `id`, or undefined when it is (still) pending. */
async function lookUp(id: string): Promise<string | undefined> {
  const name = `Approval ${id.slice(0, 8)}`;
  try {
    const a = await api<Wire<Approval>>(`/api/approvals/${encodeURIComponent(id)}`);
    const what = fate(a);
    return what === undefined
      ? undefined
      : `${name} (${a.tool} from ${a.caller}) is no longer pending: ${what}.`;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return `${name} does not exist.`;
    return `Cannot look up ${name.toLowerCase()}: ${errorText(err)}`;
  }
}

/** The URL's approval, against the pending list the page shows. */
export function useFocusTarget(approvals: readonly PendingApproval[] | undefined): FocusTarget {
  const [id, setId] = useState(linkedApprovalId);
  const [gone, setGone] = useState<string>();
  const listed = id !== null && approvals?.some((a) => a.id === id) === true;
  useEffect(() => {
    // Once gone, an approval never comes back: no need to look again.
    if (id === null || approvals === undefined || listed || gone !== undefined) return undefined;
    let stale = false;
    void lookUp(id).then((text) => {
      if (!stale) setGone(text);
    });
    return () => {
      stale = true;
    };
  }, [id, approvals, listed, gone]);
  const clear = useCallback(() => {
    window.history.replaceState(null, '', '/approvals');
    setId(null);
    setGone(undefined);
  }, []);
  return { id: listed ? id : null, gone, clear };
}
