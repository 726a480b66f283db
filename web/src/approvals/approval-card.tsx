// One pending broker call: what would run, who asks, why it needs a human, how long it has
// waited and when it expires, and the decisions (Approve always only for an authenticated
// principal, see grant-decision.tsx). Decides through the REST route only.
// The buttons stay focusable while a decision is in flight (aria-disabled), so a refused one
// leaves the keyboard user where they were. A linked card (`?id=`) scrolls into view, is
// highlighted and takes focus once.
import { useEffect, useRef, useState } from 'react';

import { api, errorText } from '../api.js';
import { span } from '../time.js';
import { msOf } from '../wire.js';
import { GrantDecision, NoGrant } from './grant-decision.js';
import type { PendingApproval } from './use-pending.js';

type Decision = 'allow_once' | 'allow_always' | 'deny';
function pretty(args: unknown): string {
  return JSON.stringify(args, null, 2) ?? String(args);
}

function Head({ approval: a, now }: { approval: PendingApproval; now: number }) {
  return (
    <header className="approval-head">
      <h2>{a.tool}</h2>
      {a.risk !== null && <span className={`tag risk-${a.risk}`}>{a.risk}</span>}
      <span className="muted">
        waiting {span(now - msOf(a.createdAt))} · expires in {span(msOf(a.expiresAt) - now)}
      </span>
    </header>
  );
}

interface DecisionsProps {
  approval: PendingApproval;
  busy: boolean;
  onDecide(decision: Decision, label: string, expiresAt?: number | null): void;
}

function Decisions({ approval, busy, onDecide }: DecisionsProps) {
  const button = (decision: Decision, label: string, className: string) => (
    <button
      type="button"
      className={className}
      aria-disabled={busy}
      onClick={() => !busy && onDecide(decision, label)}
    >
      {label}
    </button>
  );
  return (
    <div className="decisions">
      {button('allow_once', 'Approve once', 'approve')}
      {approval.principal !== null && (
        <GrantDecision
          approval={approval}
          busy={busy}
          onGrant={(expiresAt, label) => onDecide('allow_always', label, expiresAt)}
        />
      )}
      {button('deny', 'Deny', 'deny')}
      {approval.principal === null && <NoGrant caller={approval.caller} />}
    </div>
  );
}

interface Props {
  approval: PendingApproval;
  now: number;
  /** The card the page's URL links to. */
  focused: boolean;
  onDecided(message: string): void;
}

/** Scrolls the linked card into view and focuses it when it becomes the linked one. */
function useFocusOnLink(focused: boolean) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!focused) return;
    ref.current?.scrollIntoView({ block: 'center' });
    ref.current?.focus({ preventScroll: true });
  }, [focused]);
  return ref;
}

export function ApprovalCard({ approval: a, now, focused, onDecided }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const ref = useFocusOnLink(focused);
  const decide = async (
    decision: Decision,
    label: string,
    expiresAt?: number | null,
  ): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await api(`/api/approvals/${encodeURIComponent(a.id)}`, {
        method: 'POST',
        body: {
          decision,
          decidedBy: 'dashboard',
          ...(expiresAt === undefined || expiresAt === null ? {} : { expiresAt }),
        },
      });
      onDecided(decision === 'allow_always' ? label : `${label}: ${a.tool} from ${a.caller}`);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <article
      ref={ref}
      className={focused ? 'approval linked' : 'approval'}
      data-approval-id={a.id}
      aria-label={`${a.tool} from ${a.caller}`}
      aria-current={focused ? 'true' : undefined}
      tabIndex={focused ? -1 : undefined}
    >
      <Head approval={a} now={now} />
      <p className="approval-meta">
        <span className="who">{a.caller}</span> · {a.reason}
        {a.taskId !== null && (
          <>
            {' '}
            · task <code title={a.taskId}>{a.taskId.slice(0, 8)}</code>
          </>
        )}
      </p>
      <pre className="args" aria-label="Arguments">
        {pretty(a.args)}
      </pre>
      <Decisions
        approval={a}
        busy={busy}
        onDecide={(d, label, expiresAt) => void decide(d, label, expiresAt)}
      />
      {error !== undefined && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
