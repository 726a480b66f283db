// One session: who ran it and where, its timeline (tool calls, delegations linking to the child
// sessions, observations) in time order, and its summary, with a button to write one.
import type { ReactNode } from 'react';

import {
  type DetailView,
  type Observation,
  type SessionView,
  useSessionDetail,
} from './use-sessions.js';

const when = (iso: string | null): string => (iso === null ? '—' : new Date(iso).toLocaleString());
export const sessionHref = (id: string): string => `/sessions?id=${encodeURIComponent(id)}`;

function Facts({ s }: { s: SessionView }) {
  const rows: [string, ReactNode][] = [
    ['Status', s.status],
    ['Agent', [s.agentType, s.agentProgram].filter((x) => x !== null).join(' / ') || '—'],
    ['Model', s.modelId ?? '—'],
    ['Repository', s.projectId ?? s.repoPath ?? s.repoId ?? '—'],
    ['Started', when(s.startedAt)],
    ['Ended', when(s.endedAt)],
  ];
  if (s.parentSessionId !== null) {
    rows.push(['Delegated by', <a href={sessionHref(s.parentSessionId)}>{s.parentSessionId}</a>]);
  }
  return (
    <dl className="claim">
      {rows.map(([k, v]) => [<dt key={`${k}-t`}>{k}</dt>, <dd key={`${k}-d`}>{v}</dd>])}
    </dl>
  );
}

function entryOf(d: DetailView, kind: string, id: string): ReactNode {
  if (kind === 'tool_call') {
    const c = d.toolCalls.find((x) => x.id === id);
    if (c === undefined) return null;
    const files = c.files.length === 0 ? '' : ` · ${c.files.join(', ')}`;
    return (
      <>
        <span className={`tag kind-${c.status}`}>{c.status === 'error' ? 'failed' : 'call'}</span>{' '}
        <strong>{c.toolName}</strong>
        {c.error !== null && <span> — {c.error.split('\n', 1)[0]}</span>}
        <span className="muted">{files}</span>
      </>
    );
  }
  if (kind === 'delegation') {
    const x = d.delegations.find((y) => y.id === id);
    if (x === undefined) return null;
    return (
      <>
        <span className="tag">delegation</span> →{' '}
        <a href={sessionHref(x.childSessionId)}>{x.childSessionId}</a> [{x.status}] {x.task ?? ''}
      </>
    );
  }
  const o: Observation | undefined = d.observations.find((y) => y.id === id);
  if (o === undefined) return null;
  return (
    <>
      <span className="tag">{o.type}</span> {o.title}
    </>
  );
}

function Timeline({ d }: { d: DetailView }) {
  if (d.timeline.length === 0) return <p className="empty">Nothing logged in this session yet.</p>;
  return (
    <ol className="timeline" aria-label="Timeline">
      {d.timeline.map((e) => (
        <li key={`${e.kind}-${e.id}`} data-kind={e.kind}>
          <span className="muted">{new Date(e.at).toLocaleTimeString()}</span>{' '}
          {entryOf(d, e.kind, e.id)}
        </li>
      ))}
      {d.truncated && <li className="muted">Cut at the limit: older activity is not shown.</li>}
    </ol>
  );
}

function Summary(props: { d: DetailView; note: string | undefined; onSummarize(): void }) {
  const { summary } = props.d;
  return (
    <section className="drawer-section" aria-label="Summary">
      <h3>Summary</h3>
      {summary === null ? (
        <p className="empty">Not summarized yet.</p>
      ) : (
        <pre className="description summary-text">{summary.content}</pre>
      )}
      <button type="button" onClick={props.onSummarize}>
        {summary === null ? 'Summarize' : 'Summarize again'}
      </button>
      {props.note !== undefined && <span role="status"> {props.note}</span>}
    </section>
  );
}

export function SessionDetailPanel({ id }: { id: string }) {
  const { detail, error, note, summarize } = useSessionDetail(id);
  return (
    <section className="session-detail" aria-label={`Session ${id}`}>
      <h2>
        Session {id}
        {detail?.session.title != null && <span className="muted"> — {detail.session.title}</span>}
      </h2>
      {error !== undefined && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {detail === undefined && error === undefined && <p className="muted">Loading…</p>}
      {detail !== undefined && (
        <>
          <Facts s={detail.session} />
          <h3>Timeline</h3>
          <Timeline d={detail} />
          <Summary d={detail} note={note} onSummarize={summarize} />
        </>
      )}
    </section>
  );
}
