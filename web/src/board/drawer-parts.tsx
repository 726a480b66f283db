// Pieces of the task drawer: task lists (ancestors, children, dependencies), the claim, the
// status history, the comment thread and its form, the dependency form.
import { type FormEvent, useState } from 'react';

import {
  actorLabel,
  isBackfilled,
  STATUS_LABELS,
  type Task,
  type TaskComment,
  type TaskEvent,
  UNRECORDED_ACTOR,
  UNRECORDED_HINT,
} from './model.js';

export function TaskList(props: {
  title: string;
  tasks: readonly Task[];
  empty: string;
  onOpen(id: string): void;
  onUnlink?: ((id: string) => void) | undefined;
}) {
  return (
    <section className="drawer-section">
      <h3>{props.title}</h3>
      {props.tasks.length === 0 && <p className="empty">{props.empty}</p>}
      <ul className="links">
        {props.tasks.map((t) => (
          <li key={t.id}>
            <button type="button" className="link" onClick={() => props.onOpen(t.id)}>
              {t.title}
            </button>{' '}
            <span className="tag">{STATUS_LABELS[t.status]}</span>
            {props.onUnlink !== undefined && (
              <button
                type="button"
                className="small"
                onClick={() => props.onUnlink?.(t.id)}
                aria-label={`Unlink ${t.title}`}
              >
                Unlink
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Claim({ task }: { task: Task }) {
  if (task.assigneeAgentId === null) return <p className="empty">Not claimed.</p>;
  return (
    <dl className="claim">
      <dt>Assignee</dt>
      <dd>
        {task.assigneeAgentId}
        {task.assigneeRuntime !== null && ` (${task.assigneeRuntime})`}
      </dd>
      <dt>Lease expires</dt>
      <dd>
        {task.leaseExpiresAt === null ? 'no lease' : new Date(task.leaseExpiresAt).toLocaleString()}
      </dd>
    </dl>
  );
}

/** By whom: the actor, client and transport; an event that names none says so, with why. */
function Who({ e }: { e: TaskEvent }) {
  const who = actorLabel(e);
  const hint = who === UNRECORDED_ACTOR ? UNRECORDED_HINT : undefined;
  return (
    <span className="who" title={hint}>
      by {who}
    </span>
  );
}

/** One status change: from → to by whom (and why, when it says more). */
function Change({ e }: { e: TaskEvent }) {
  if (isBackfilled(e)) {
    // Migration 13's stand-in for a task older than the event log: only its status is known.
    return (
      <>
        Status <strong>{STATUS_LABELS[e.toStatus]}</strong>{' '}
        <span className="muted" title={e.reason ?? undefined}>
          (recorded when history began)
        </span>
      </>
    );
  }
  return (
    <>
      {e.fromStatus === null ? 'created' : STATUS_LABELS[e.fromStatus]} →{' '}
      <strong>{STATUS_LABELS[e.toStatus]}</strong> <Who e={e} />
      {e.reason !== null && !['create', 'status'].includes(e.reason) && (
        <span className="muted"> ({e.reason})</span>
      )}
    </>
  );
}

/** Status changes, newest first: time, then the change. */
export function History({ events }: { events: readonly TaskEvent[] }) {
  if (events.length === 0) return <p className="empty">No recorded status changes.</p>;
  return (
    <ol className="comments history" aria-label="Status history">
      {[...events].reverse().map((e) => (
        <li key={e.id}>
          <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time> <Change e={e} />
        </li>
      ))}
    </ol>
  );
}

export function Comments({ comments }: { comments: readonly TaskComment[] }) {
  if (comments.length === 0) return <p className="empty">No comments yet.</p>;
  return (
    <ol className="comments">
      {comments.map((c) => (
        <li key={c.id}>
          <span className="who">{c.authorAgentId ?? c.authorType}</span>{' '}
          <time dateTime={c.createdAt}>{new Date(c.createdAt).toLocaleString()}</time>
          <p>{c.body}</p>
        </li>
      ))}
    </ol>
  );
}

/** A one-field form that clears itself after a successful submit. */
export function OneLineForm(props: {
  label: string;
  button: string;
  multiline?: boolean;
  onSubmit(value: string): Promise<boolean>;
}) {
  const [value, setValue] = useState('');
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (value.trim() === '') return;
    void props.onSubmit(value.trim()).then((ok) => ok && setValue(''));
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <label>
        {props.label}
        {props.multiline === true ? (
          <textarea value={value} onChange={(e) => setValue(e.target.value)} rows={3} />
        ) : (
          <input value={value} onChange={(e) => setValue(e.target.value)} />
        )}
      </label>
      <button type="submit">{props.button}</button>
    </form>
  );
}
