// The task event log: one row per status change, written inside the write transaction that
// makes the change. Every status-changing path in the board calls `recordTransition`; nothing
// else writes task_events (but migration 13, which gave older tasks one `back-filled: …` event
// with no `from_status` and no actor), and a refused or no-op move records nothing.
import type { Queryable } from '../store/index.js';
import type { ActorVia, TaskEvent, TaskStatus } from './model.js';

/** Who made a change, as the history stores it. */
export interface RecordedActor {
  actor: string | null;
  client?: string | null | undefined;
  via?: ActorVia | null | undefined;
}

/** One status change as the board records it. */
export interface Transition extends RecordedActor {
  taskId: string;
  at: number;
  from: TaskStatus | null;
  to: TaskStatus;
  reason: string;
}

interface EventRow {
  id: number;
  task_id: string;
  at: number;
  from_status: TaskStatus | null;
  to_status: TaskStatus;
  actor: string | null;
  actor_client: string | null;
  actor_via: ActorVia | null;
  reason: string | null;
}

/** Appends one event; call it in the same transaction as the status change. */
export async function recordTransition(tx: Queryable, t: Transition): Promise<void> {
  await tx.run(
    `INSERT INTO task_events (task_id, at, from_status, to_status, actor, actor_client, actor_via, reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [t.taskId, t.at, t.from, t.to, t.actor, t.client ?? null, t.via ?? null, t.reason],
  );
}

/** A task's events, oldest first. */
export async function selectHistory(q: Queryable, taskId: string): Promise<TaskEvent[]> {
  const rows = await q.all<EventRow>(
    'SELECT * FROM task_events WHERE task_id = ? ORDER BY id ASC',
    [taskId],
  );
  return rows.map((r) => ({
    id: r.id,
    taskId: r.task_id,
    at: new Date(r.at).toISOString(),
    fromStatus: r.from_status,
    toStatus: r.to_status,
    actor: r.actor,
    actorClient: r.actor_client,
    actorVia: r.actor_via,
    reason: r.reason,
  }));
}
