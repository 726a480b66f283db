// The approvals page: every pending broker call with its decisions. The list comes from the
// shell's live hook (see use-pending.ts), so the badge and the page always agree. A link
// `/approvals?id=<id>` focuses that call's card, or says what became of it. After a decision
// its card goes away and focus moves to the heading (Tab goes on to the next card). Below the
// cards, the standing allow_always grants with Revoke (grants-list.tsx).
import { useEffect, useRef, useState } from 'react';

import { useNow } from '../time.js';
import { ApprovalCard } from './approval-card.js';
import { GrantsList } from './grants-list.js';
import { useFocusTarget } from './use-focus-target.js';
import type { Pending } from './use-pending.js';

const LIVE_TEXT = { live: 'Live', offline: 'Reconnecting…', connecting: 'Connecting…' };

/** Why the linked approval is not here; takes focus when it appears. */
function GoneNotice({ text }: { text: string | undefined }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (text !== undefined) ref.current?.focus();
  }, [text]);
  if (text === undefined) return null;
  return (
    <p className="notice gone" role="status" tabIndex={-1} ref={ref} data-testid="approval-gone">
      {text}
    </p>
  );
}

export function ApprovalsPage({ pending }: { pending: Pending }) {
  const [notice, setNotice] = useState<string>();
  const { approvals, error } = pending;
  const target = useFocusTarget(approvals);
  const heading = useRef<HTMLHeadingElement>(null);
  const onDecided = (id: string, message: string): void => {
    setNotice(message);
    if (id === target.id) target.clear();
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
      <GoneNotice text={target.gone} />
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
          <ApprovalCard
            key={a.id}
            approval={a}
            now={now}
            focused={a.id === target.id}
            onDecided={(message) => onDecided(a.id, message)}
          />
        ))}
      </div>
      <GrantsList version={approvals} />
    </main>
  );
}
