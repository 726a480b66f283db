// One agent's table row (state, channels, rotate / revoke with an inline confirmation) and the
// once-only display of freshly rotated credentials. Focus follows the keyboard user: into the
// confirmation (on Cancel), back to the button that opened it, and onto new credentials.
import { useEffect, useRef, useState } from 'react';

import { CopyButton } from '../copy-button.js';

export interface AgentView {
  nick: string;
  type: string;
  active: boolean;
  revokedAt: string | null;
  /** ISO 8601, as the API sends it. */
  lastSeenAt: string | null;
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

type Action = 'rotate' | 'revoke';
type Act = (nick: string, action: Action) => void;

function Confirm(props: {
  nick: string;
  what: Action;
  onAct: Act;
  /** `restore`: give focus back to the button that asked (Cancel, Escape). */
  onClose: (restore: boolean) => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <span
      className="confirm"
      role="group"
      aria-label={`Confirm ${props.what}`}
      onKeyDown={(e) => e.key === 'Escape' && props.onClose(true)}
    >
      {props.what === 'rotate' ? 'Old credentials stop working. ' : 'The agent is locked out. '}
      <button
        type="button"
        className="danger"
        onClick={() => {
          props.onClose(false);
          props.onAct(props.nick, props.what);
        }}
      >
        Yes, {props.what}
      </button>{' '}
      <button type="button" ref={cancel} onClick={() => props.onClose(true)}>
        Cancel
      </button>
    </span>
  );
}

function Actions({ agent, onAct }: { agent: AgentView; onAct: Act }) {
  const [confirm, setConfirm] = useState<Action>();
  const [restore, setRestore] = useState<Action>();
  const buttons = useRef<Partial<Record<Action, HTMLButtonElement | null>>>({});
  useEffect(() => {
    if (confirm !== undefined || restore === undefined) return;
    buttons.current[restore]?.focus();
    setRestore(undefined);
  }, [confirm, restore]);
  if (confirm !== undefined) {
    return (
      <Confirm
        nick={agent.nick}
        what={confirm}
        onAct={onAct}
        onClose={(back) => {
          setRestore(back ? confirm : undefined);
          setConfirm(undefined);
        }}
      />
    );
  }
  return (
    <span className="row-actions">
      <button
        type="button"
        ref={(b) => {
          buttons.current.rotate = b;
        }}
        onClick={() => setConfirm('rotate')}
      >
        {agent.revokedAt === null ? 'Rotate' : 'Reinstate'}
      </button>
      {agent.revokedAt === null && (
        <button
          type="button"
          className="danger"
          ref={(b) => {
            buttons.current.revoke = b;
          }}
          onClick={() => setConfirm('revoke')}
        >
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
  const box = useRef<HTMLElement>(null);
  useEffect(() => box.current?.focus(), [creds]);
  return (
    <section
      className="notice creds"
      role="status"
      aria-label="New credentials"
      tabIndex={-1}
      ref={box}
    >
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
