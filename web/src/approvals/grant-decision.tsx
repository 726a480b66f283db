// The "Approve always" part of an approval card. It names exactly what it grants: this tool, to
// the call's authenticated principal (a bound agent), until the chosen expiry. An unbound
// caller's self-reported name cannot hold a grant, so the card says why instead of offering it.
import { useState } from 'react';

import type { PendingApproval } from './use-pending.js';

const HOUR = 3_600_000;
const LASTS: ReadonlyArray<{ label: string; ms: number | null }> = [
  { label: 'until revoked', ms: null },
  { label: 'for 1 hour', ms: HOUR },
  { label: 'for 1 day', ms: 24 * HOUR },
  { label: 'for 7 days', ms: 7 * 24 * HOUR },
];

interface Props {
  approval: PendingApproval;
  busy: boolean;
  /** Decides allow_always; `expiresAt` null means until revoked. */
  onGrant(expiresAt: number | null, label: string): void;
}

/** "until revoked", or "until <local time>" counted from now. */
const untilText = (ms: number | null): string =>
  ms === null ? 'until revoked' : `until ${new Date(Date.now() + ms).toLocaleString()}`;

/** Why an unbound caller's card offers no "Approve always". */
export function NoGrant({ caller }: { caller: string }) {
  return (
    <p className="no-grant" data-testid="no-grant">
      No “Approve always” here: <span className="who">{caller}</span> is an unbound session, and its
      name is self-reported (any client can claim it), so a standing grant could not be tied to it.
      Attach the agent with a signed URL (<code>cairn config --server tools --agent ID</code>) or{' '}
      <code>--agent</code> on stdio to allow grants.
    </p>
  );
}

/** "Approve always" for a call whose principal is authenticated (`approval.principal`). */
export function GrantDecision({ approval: a, busy, onGrant }: Props) {
  const [choice, setChoice] = useState(0);
  const principal = a.principal ?? '';
  const lasts = LASTS[choice] ?? { label: 'until revoked', ms: null };
  const label = `Approve always: ${a.tool} for ${principal}, ${lasts.label}`;
  const grant = (): void => onGrant(lasts.ms === null ? null : Date.now() + lasts.ms, label);
  return (
    <span className="grant-decision">
      <button
        type="button"
        className="approve"
        aria-disabled={busy}
        title={`Runs this call, and ${principal}'s later ${a.tool} calls without asking, ${untilText(lasts.ms)}. Revoke it under Standing grants.`}
        onClick={() => !busy && grant()}
      >
        {label}
      </button>
      <label>
        <span className="visually-hidden">Grant lasts</span>
        <select value={choice} onChange={(e) => setChoice(Number(e.target.value))}>
          {LASTS.map((l, i) => (
            <option key={l.label} value={i}>
              {l.label}
            </option>
          ))}
        </select>
      </label>
    </span>
  );
}
