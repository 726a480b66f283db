// The approvals page: every pending broker call with its decisions. The list comes from the
// shell's live hook (see use-pending.ts), so the badge and the page always agree. After a
// decision its card goes away and focus moves to the heading (Tab goes on to the next card).
import { useEffect, useRef, useState } from 'react';

import { ApprovalCard } from './approval-card.js';
import type { Pending } from './use-pending.js';

const LIVE_TEXT = { live: 'Live', offline: 'Reconnecting…', connecting: 'Connecting…' };

/** The current time, re-read every second so "waiting for" and "expires in" keep moving. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

export function ApprovalsPage({ pending }: { pending: Pending }) {
  const [notice, setNotice] = useState<string>();
  const { approvals, error } = pending;
  const heading = useRef<HTMLHeadingElement>(null);
  const onDecided = (message: string): void => {
    setNotice(message);
    heading.current?.focus();
    void pending.refresh();
  };
  const now = useNow();
  return (
    <main className="page">
      <div className="status-line">
        <h1 tabIndex={-1} ref={heading}>
          Approvals
        </h1>
        <span className={`live ${pending.live}`}>{LIVE_TEXT[pending.live]}</span>
        {notice !== undefined && <span role="status">{notice}</span>}
      </div>
      {error !== undefined && (
        <p className="notice error" role="alert">
          Cannot load approvals: {error}
        </p>
      )}
      {approvals === undefined && error === undefined && <p className="muted">Loading…</p>}
      {approvals?.length === 0 && (
        <p className="empty">
          Nothing is waiting for you. When an agent calls a destructive or external tool (for
          example <code>delete_path</code>), the call waits here until you approve or deny it.
        </p>
      )}
      <div className="approvals">
        {approvals?.map((a) => (
          <ApprovalCard key={a.id} approval={a} now={now} onDecided={onDecided} />
        ))}
      </div>
    </main>
  );
}
