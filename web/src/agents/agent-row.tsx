// One agent's table row (state, channels, rotate / revoke with an inline confirmation) and the
// once-only display of freshly rotated credentials.
import { useState } from 'react';

import { CopyButton } from '../copy-button.js';

export interface AgentView {
  nick: string;
  type: string;
  active: boolean;
  revokedAt: number | null;
  lastSeenAt: number | null;
  channels: string[];
}

export interface Credentials {
  nick: string;
  password: string;
  token: string;
}

function stateOf(a: AgentView): string {
  if (a.revokedAt !== null) return 'revoked';
  return a.active ? 'online' : 'offline';
}

type Act = (nick: string, action: 'rotate' | 'revoke') => void;

function Confirm(props: {
  nick: string;
  what: 'rotate' | 'revoke';
  onAct: Act;
  onCancel: () => void;
}) {
  return (
    <span className="confirm" role="group" aria-label={`Confirm ${props.what}`}>
      {props.what === 'rotate' ? 'Old credentials stop working. ' : 'The agent is locked out. '}
      <button
        type="button"
        className="danger"
        onClick={() => {
          props.onCancel();
          props.onAct(props.nick, props.what);
        }}
      >
        Yes, {props.what}
      </button>{' '}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </span>
  );
}

function Actions({ agent, onAct }: { agent: AgentView; onAct: Act }) {
  const [confirm, setConfirm] = useState<'rotate' | 'revoke'>();
  if (confirm !== undefined) {
    return (
      <Confirm
        nick={agent.nick}
        what={confirm}
        onAct={onAct}
        onCancel={() => setConfirm(undefined)}
      />
    );
  }
  return (
    <span className="row-actions">
      <button type="button" onClick={() => setConfirm('rotate')}>
        {agent.revokedAt === null ? 'Rotate' : 'Reinstate'}
      </button>
      {agent.revokedAt === null && (
        <button type="button" className="danger" onClick={() => setConfirm('revoke')}>
          Revoke
        </button>
      )}
    </span>
  );
}

export function AgentRow({
  agent,
  onAct,
}: {
  agent: AgentView;
  onAct: (n: string, a: 'rotate' | 'revoke') => void;
}) {
  const state = stateOf(agent);
  return (
    <tr data-agent={agent.nick}>
      <td className="mono">{agent.nick}</td>
      <td>{agent.type}</td>
      <td>
        <span className={`tag state-${state}`}>{state}</span>
      </td>
      <td>{agent.channels.length === 0 ? '–' : agent.channels.join(', ')}</td>
      <td>{agent.lastSeenAt === null ? 'never' : new Date(agent.lastSeenAt).toLocaleString()}</td>
      <td>
        <Actions agent={agent} onAct={onAct} />
      </td>
    </tr>
  );
}

export function NewCredentials({ creds, onDone }: { creds: Credentials; onDone: () => void }) {
  return (
    <section className="notice creds" role="status" aria-label="New credentials">
      <p>
        New credentials for <strong>{creds.nick}</strong>, shown only this once:
      </p>
      <p>
        Token <code className="secret">{creds.token}</code> <CopyButton text={creds.token} />
      </p>
      <p>
        Password <code className="secret">{creds.password}</code>{' '}
        <CopyButton text={creds.password} />
      </p>
      <button type="button" onClick={onDone}>
        Done, hide them
      </button>
    </section>
  );
}
