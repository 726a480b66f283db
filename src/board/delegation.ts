// Row-level steps of a delegated task (see board.createDelegatedTask): the assignment of a new
// task to the teammate, and a comment with its inbox entries (also every add_comment's). Each
// takes the transaction it runs in; none opens one.
import type { Queryable } from '../store/index.js';
import { recordTransition } from './events.js';
import { addressInbox, messageEntries } from './inbox.js';
import { insertComment } from './rows-ops.js';
import type { CommentRow, TaskRow } from './rows.js';
import type { CommentInput } from './types.js';

/** Assigns a todo task to `assignee` on behalf of `by`, as `assign_task` would. */
export async function assignNew(
  tx: Queryable,
  row: TaskRow,
  a: { assignee: string; by: string; now: number; leaseMs: number },
): Promise<TaskRow> {
  const lease = a.now + a.leaseMs;
  await tx.run(
    `UPDATE tasks SET status = 'in_progress', assignee_agent_id = ?, lease_expires_at = ?,
       updated_at = ? WHERE id = ?`,
    [a.assignee, lease, a.now, row.id],
  );
  await recordTransition(tx, {
    ...{ taskId: row.id, at: a.now, from: row.status, to: 'in_progress' },
    ...{ actor: a.by, reason: `assign to ${a.assignee}` },
  });
  return {
    ...row,
    status: 'in_progress',
    assignee_agent_id: a.assignee,
    lease_expires_at: lease,
    updated_at: a.now,
  };
}

/**
 * Appends a comment to `task`: its holder hears of it on their next tasks call, and so does
 * anyone @mentioned.
 */
export async function writeComment(
  tx: Queryable,
  task: TaskRow,
  input: CommentInput,
  now: number,
): Promise<CommentRow> {
  const row = await insertComment(tx, input, now);
  const author = row.author_agent_id ?? (row.author_type === 'user' ? 'user' : null);
  const where = { source: task.id, ref: row.id, author, at: row.created_at };
  const holder = task.assignee_agent_id;
  const open = task.status !== 'done' && task.status !== 'cancelled';
  const holders = holder !== null && open ? [holder] : [];
  await addressInbox(tx, messageEntries(row.body, where, { agentIds: holders, kind: 'comment' }));
  return row;
}
