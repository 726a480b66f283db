// Row-level board operations shared by the board's services. Each takes the transaction it
// runs in; none opens one itself.
import { randomUUID } from 'node:crypto';

import { InvalidInputError, stripInvisible } from '../shared/index.js';
import { nextInsertionSeq, type Queryable } from '../store/index.js';
import { NotHolderError, taskNotFound } from './errors.js';
import { type RecordedActor, recordTransition } from './events.js';
import { addressInbox } from './inbox.js';
import type { TaskStatus } from './model.js';
import { findTask } from './queries.js';
import type { CommentRow, TaskRow } from './rows.js';
import type { Actor, CommentInput, CreateTaskInput } from './types.js';

/** Text that was nothing but invisible characters (stripped on every write). */
const EMPTIED = 'must not be empty once invisible characters are removed';

/** Statuses in which an assignee holds the task (blocked work keeps its owner). */
const HELD: readonly TaskStatus[] = ['in_progress', 'in_review', 'blocked'];

export async function insertComment(
  tx: Queryable,
  input: CommentInput,
  now: number,
): Promise<CommentRow> {
  const body = stripInvisible(input.body);
  if (body === '') throw new InvalidInputError(EMPTIED, 'body');
  const row: CommentRow = {
    id: randomUUID(),
    task_id: input.taskId,
    body,
    author_agent_id: input.authorAgentId ?? null,
    author_type: input.authorType ?? 'agent',
    created_at: now,
  };
  // Insertion order (migration 32) breaks ties in the board's orderings.
  const seq = await nextInsertionSeq(tx, 'task_comments');
  await tx.run(
    `INSERT INTO task_comments (id, task_id, body, author_agent_id, author_type, created_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [row.id, row.task_id, row.body, row.author_agent_id, row.author_type, row.created_at, seq],
  );
  return row;
}

/**
 * Who the history names for an actor: the agent, else its name, else unknown (null), with the
 * session's client and transport when known.
 */
export function recordedActor(actor: Actor): RecordedActor {
  return {
    actor: actor.agentId ?? actor.name ?? null,
    client: actor.client ?? null,
    via: actor.via ?? null,
  };
}

/**
 * Writes a legal move of `row` to `to` and its history event; back to todo clears the claim,
 * in_progress with an assignee gets a fresh lease. The caller has checked the move.
 */
export async function applyMove(
  tx: Queryable,
  row: TaskRow,
  to: TaskStatus,
  at: { now: number; leaseMs: number; by: RecordedActor; reason: string },
): Promise<TaskRow> {
  const assignee = to === 'todo' ? null : row.assignee_agent_id;
  const runtime = to === 'todo' ? null : row.assignee_runtime;
  const lease = to === 'in_progress' && assignee !== null ? at.now + at.leaseMs : null;
  await tx.run(
    'UPDATE tasks SET status = ?, assignee_agent_id = ?, assignee_runtime = ?, lease_expires_at = ?, updated_at = ? WHERE id = ?',
    [to, assignee, runtime, lease, at.now, row.id],
  );
  const { by, reason } = at;
  await recordTransition(tx, { ...by, taskId: row.id, at: at.now, from: row.status, to, reason });
  return {
    ...row,
    status: to,
    assignee_agent_id: assignee,
    assignee_runtime: runtime,
    lease_expires_at: lease,
    updated_at: at.now,
  };
}

/** A claim whose lease ran out (the condition the sweep selects and re-checks as it updates). */
const EXPIRED_SQL =
  "status = 'in_progress' AND lease_expires_at IS NOT NULL AND lease_expires_at <= ? AND deleted_at IS NULL";

/**
 * Returns expired in_progress claims to todo, each with a system comment and a `lease` event;
 * returns how many. Each return is a conditional UPDATE that re-states the expiry, so two
 * sweeps racing under row locks (a 'rows' write) return a claim once: the second finds it
 * already returned (or renewed) and records nothing.
 */
export async function sweepExpired(tx: Queryable, now: number): Promise<number> {
  const expired = await tx.all<TaskRow>(`SELECT * FROM tasks WHERE ${EXPIRED_SQL}`, [now]);
  let returned = 0;
  for (const row of expired) {
    const res = await tx.run(
      `UPDATE tasks SET status = 'todo', assignee_agent_id = NULL, assignee_runtime = NULL,
         lease_expires_at = NULL, updated_at = ?
       WHERE id = ? AND ${EXPIRED_SQL}`,
      [now, row.id, now],
    );
    if (res.changes === 0) continue;
    returned += 1;
    const by = row.assignee_agent_id ?? 'unknown';
    await recordTransition(tx, {
      taskId: row.id,
      at: now,
      from: row.status,
      to: 'todo',
      actor: 'lease',
      reason: `lease expired: claim by ${by}`,
    });
    const body = `lease expired: claim by ${row.assignee_agent_id ?? 'unknown'} returned the task to todo`;
    const comment = await insertComment(tx, { taskId: row.id, body, authorType: 'system' }, now);
    // The agent that lost the claim learns it on its next tasks call.
    if (row.assignee_agent_id !== null)
      await addressInbox(tx, [
        {
          ...{ agentId: row.assignee_agent_id, kind: 'comment', source: row.id },
          ...{ ref: comment.id, author: null, text: body, at: now },
        },
      ]);
  }
  return returned;
}

export async function hasExpired(q: Queryable, now: number): Promise<boolean> {
  const row = await q.get<{ x: number }>(
    "SELECT 1 AS x FROM tasks WHERE status = 'in_progress' AND lease_expires_at IS NOT NULL AND lease_expires_at <= ? AND deleted_at IS NULL LIMIT 1",
    [now],
  );
  return row !== undefined;
}

export async function mustFind(tx: Queryable, id: string): Promise<TaskRow> {
  const row = await findTask(tx, id);
  if (row === undefined) throw taskNotFound(id);
  return row;
}

export function assertHolder(row: TaskRow, actor: Actor, prefix: string): void {
  const agent = actor.agentId;
  const holder = row.assignee_agent_id;
  if (agent === undefined || holder === null || !HELD.includes(row.status)) return;
  if (holder !== agent) {
    throw new NotHolderError(`${prefix}task ${row.id} is held by ${holder}, not ${agent}`);
  }
}

/** @throws InvalidInputError when the title is blank once invisible characters are removed. */
function newTaskRow(input: CreateTaskInput, parent: TaskRow | undefined, now: number): TaskRow {
  const title = stripInvisible(input.title);
  if (title.trim() === '') throw new InvalidInputError(EMPTIED, 'title');
  return {
    id: randomUUID(),
    team_id: input.teamId ?? parent?.team_id ?? null,
    parent_task_id: parent?.id ?? null,
    depth: parent === undefined ? 0 : parent.depth + 1,
    title,
    description: stripInvisible(input.description ?? ''),
    status: input.status ?? 'todo',
    priority: input.priority ?? 0,
    assignee_agent_id: null,
    assignee_runtime: input.assigneeRuntime ?? null,
    lease_expires_at: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

/** Inserts a task and its `create` event (from null). */
export async function insertTask(
  tx: Queryable,
  input: CreateTaskInput,
  parent: TaskRow | undefined,
  now: number,
  by: RecordedActor = { actor: null },
): Promise<TaskRow> {
  const row = newTaskRow(input, parent, now);
  const seq = await nextInsertionSeq(tx, 'tasks');
  await tx.run(
    `INSERT INTO tasks (id, team_id, parent_task_id, depth, title, description, status, priority,
      assignee_agent_id, assignee_runtime, lease_expires_at, created_at, updated_at, deleted_at, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      ...[row.id, row.team_id, row.parent_task_id, row.depth, row.title, row.description],
      ...[row.status, row.priority, row.assignee_agent_id, row.assignee_runtime],
      ...[row.lease_expires_at, row.created_at, row.updated_at, row.deleted_at, seq],
    ],
  );
  const to = row.status;
  await recordTransition(tx, { ...by, taskId: row.id, at: now, from: null, to, reason: 'create' });
  return row;
}
