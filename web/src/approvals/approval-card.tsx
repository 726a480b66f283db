// One pending broker call: what would run, who asks, why it needs a human, how long it has
// waited and when it expires, and the three decisions. Decides through the REST route only.
// The buttons stay focusable while a decision is in flight (aria-disabled), so a refused one
// leaves the keyboard user where they were.
import { useState } from 'react';

import { api, errorText } from '../api.js';
import type { PendingApproval } from './use-pending.js';

type Decision = 'allow_once' | 'allow_always' | 'deny';

const DECISIONS: ReadonlyArray<{ decision: Decision; label: string; className: string }> = [
  { decision: 'allow_once', label: 'Approve once', className: 'approve' },
  { decision: 'allow_always', label: 'Approve always', className: 'approve' },
  { decision: 'deny', label: 'Deny', className: 'deny' },
];

/** "42 s", "3 min", "2 h" */
export function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h`;
}

function pretty(args: unknown): string {
  return JSON.stringify(args, null, 2) ?? String(args);
}

function Head({ approval: a, now }: { approval: PendingApproval; now: number }) {
  return (
    <header className="approval-head">
      <h2>{a.tool}</h2>
      {a.risk !== null && <span className={`tag risk-${a.risk}`}>{a.risk}</span>}
      <span className="muted">
        waiting {span(now - a.createdAt)} · expires in {span(a.expiresAt - now)}
      </span>
    </header>
  );
}

interface DecisionsProps {
  busy: boolean;
  onDecide(decision: Decision, label: string): void;
}

function Decisions({ busy, onDecide }: DecisionsProps) {
  return (
    <div className="decisions">
      {DECISIONS.map((d) => (
        <button
          key={d.decision}
          type="button"
          className={d.className}
          aria-disabled={busy}
          onClick={() => !busy && onDecide(d.decision, d.label)}
        >
          {d.label}
        </button>
      ))}
    </div>
  );
}

interface Props {
  approval: PendingApproval;
  now: number;
  onDecided(message: string): void;
}

export function ApprovalCard({ approval: a, now, onDecided }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const decide = async (decision: Decision, label: string): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await api(`/api/approvals/${encodeURIComponent(a.id)}`, {
        method: 'POST',
        body: { decision, decidedBy: 'dashboard' },
      });
      onDecided(`${label}: ${a.tool} from ${a.caller}`);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <article className="approval" data-approval-id={a.id} aria-label={`${a.tool} from ${a.caller}`}>
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
      <Decisions busy={busy} onDecide={(d, label) => void decide(d, label)} />
      {error !== undefined && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
