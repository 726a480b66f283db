// The agents page: every registered agent (type, online state, channels) with credential
// rotation (new password and token shown once) and revocation after a confirmation.
import { useCallback, useEffect, useRef, useState } from 'react';

import '../ops.css';

import { api, errorText } from '../api.js';
import { AgentRow, type AgentView, type Credentials, NewCredentials } from './agent-row.js';

function useAgents() {
  const [agents, setAgents] = useState<AgentView[]>();
  const [error, setError] = useState<string>();
  const load = useCallback(() => {
    api<{ agents: AgentView[] }>('/api/agents')
      .then((r) => {
        setAgents(r.agents);
        setError(undefined);
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, []);
  useEffect(load, [load]);
  const [shown, setShown] = useState<Credentials>();
  const act = (nick: string, action: 'rotate' | 'revoke'): void => {
    api<{ credentials?: Credentials }>(`/api/agents/${encodeURIComponent(nick)}/${action}`, {
      method: 'POST',
    })
      .then((r) => {
        setShown(r.credentials);
        load();
      })
      .catch((err: unknown) => setError(errorText(err)));
  };
  return { agents, error, load, act, shown, hide: () => setShown(undefined) };
}

function AgentsTable(props: {
  agents: AgentView[];
  onAct: (n: string, a: 'rotate' | 'revoke') => void;
}) {
  return (
    <div className="table-wrap">
      <table className="audit agents">
        <thead>
          <tr>
            {['Nick', 'Type', 'State', 'Channels', 'Last seen', ''].map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.agents.map((a) => (
            <AgentRow key={a.nick} agent={a} onAct={props.onAct} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AgentsPage() {
  const { agents, error, load, act, shown, hide } = useAgents();
  const heading = useRef<HTMLHeadingElement>(null);
  const done = (): void => {
    hide();
    heading.current?.focus();
  };
  return (
    <main className="page">
      <div className="status-line">
        <h1 tabIndex={-1} ref={heading}>
          Agents
        </h1>
        <button type="button" onClick={load}>
          Refresh
        </button>
      </div>
      {error !== undefined && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {shown !== undefined && <NewCredentials creds={shown} onDone={done} />}
      {agents === undefined && error === undefined && <p className="muted">Loading…</p>}
      {agents?.length === 0 && (
        <p className="empty">
          No agents yet. Register one with <code>POST /v1/agents/register</code> or the
          backplane&apos;s <code>register_agent</code> tool; it shows up here.
        </p>
      )}
      {agents !== undefined && agents.length > 0 && <AgentsTable agents={agents} onAct={act} />}
    </main>
  );
}
