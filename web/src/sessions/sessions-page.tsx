// The sessions page: recent agent sessions (agent, model, repository, status, tool calls,
// errors, start and end) filtered by status and agent type; `?id=` opens one session's
// timeline and summary below the list. Links keep the selection in the address.
import { type FormEvent, useRef, useState } from 'react';

import '../ops.css';
import './sessions.css';

import { sessionHref, SessionDetailPanel } from './session-detail.js';
import { STATUSES, type SessionFilter, type SessionView, useSessionList } from './use-sessions.js';

const when = (iso: string | null): string => (iso === null ? '—' : new Date(iso).toLocaleString());

function Filters(props: { value: SessionFilter; onChange(next: SessionFilter): void }) {
  const [draft, setDraft] = useState(props.value);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    props.onChange(draft);
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Session filters">
      <label>
        Status{' '}
        <select
          value={draft.status}
          onChange={(e) => {
            const next = { ...draft, status: e.target.value };
            setDraft(next);
            props.onChange(next);
          }}
        >
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        Agent type{' '}
        <input
          type="text"
          value={draft.agentType}
          onChange={(e) => setDraft({ ...draft, agentType: e.target.value })}
        />
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

function Row({ s, selected }: { s: SessionView; selected: boolean }) {
  const agent = [s.agentType, s.agentProgram].filter((x) => x !== null).join(' / ');
  return (
    <tr data-session={s.id} aria-current={selected ? 'true' : undefined}>
      <td>
        <a href={sessionHref(s.id)}>{s.id}</a>
        {s.title !== null && <div className="muted">{s.title}</div>}
      </td>
      <td>{agent || '—'}</td>
      <td>{s.modelId ?? '—'}</td>
      <td>{s.projectId ?? s.repoPath ?? s.repoId ?? '—'}</td>
      <td>{s.status}</td>
      <td>{s.counts.toolCalls}</td>
      <td>{s.counts.errors}</td>
      <td>{when(s.startedAt)}</td>
      <td>{when(s.endedAt)}</td>
    </tr>
  );
}

function SessionsTable(props: { sessions: SessionView[]; selected: string | null }) {
  const heads = ['Session', 'Agent', 'Model', 'Repository', 'Status', 'Calls', 'Errors'];
  return (
    <div className="table-wrap">
      <table className="audit sessions">
        <thead>
          <tr>
            {[...heads, 'Started', 'Ended'].map((h) => (
              <th key={h}>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.sessions.map((s) => (
            <Row key={s.id} s={s} selected={s.id === props.selected} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SessionsPage() {
  const selected = new URLSearchParams(window.location.search).get('id');
  const [filter, setFilter] = useState<SessionFilter>({ status: '', agentType: '' });
  const { list, error, load } = useSessionList(filter);
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <main className="page">
      <div className="status-line">
        <h1 tabIndex={-1} ref={heading}>
          Sessions
        </h1>
        <button type="button" onClick={load}>
          Refresh
        </button>
        {list !== undefined && <span className="muted">{list.message}</span>}
      </div>
      <Filters value={filter} onChange={setFilter} />
      {error !== undefined && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {list === undefined && error === undefined && <p className="muted">Loading…</p>}
      {list?.status === 'empty' && (
        <p className="empty">
          No agent session yet. Agents start one with <code>start_session</code> on the context
          server and log their work with <code>log_tool_call</code>; it shows up here.
        </p>
      )}
      {list !== undefined && list.sessions.length > 0 && (
        <SessionsTable sessions={list.sessions} selected={selected} />
      )}
      {selected !== null && <SessionDetailPanel id={selected} />}
    </main>
  );
}
