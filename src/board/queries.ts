// Read-side SQL for the board. Every function takes a Queryable so it runs inside or outside
// a transaction.
import type { Queryable, SqlValue } from '../store/index.js';
import type { TaskStatus } from './model.js';
import type { CommentRow, TaskRow } from './rows.js';

/** Live (not dropped) task by id. */
export function findTask(q: Queryable, id: string): Promise<TaskRow | undefined> {
  return q.get<TaskRow>('SELECT * FROM tasks WHERE id = ? AND deleted_at IS NULL', [id]);
}

/** The condition a todo task must meet to be claimable: every live dependency done. */
export const READY_SQL = `t.status = 'todo' AND t.assignee_agent_id IS NULL AND t.deleted_at IS NULL
  AND NOT EXISTS (
    SELECT 1 FROM task_dependencies d JOIN tasks dt ON dt.id = d.depends_on_task_id
    WHERE d.task_id = t.id AND dt.status <> 'done' AND dt.deleted_at IS NULL)`;

/**
 * The live dependencies of `taskId` that are not done (the ones READY_SQL waits for), at most
 * `limit`, oldest link first, and how many there are in all.
 */
export async function selectUnmetDependencies(
  q: Queryable,
  taskId: string,
  limit: number,
): Promise<{ unmet: Array<{ id: string; title: string; status: TaskStatus }>; total: number }> {
  const from = `FROM task_dependencies d JOIN tasks dt ON dt.id = d.depends_on_task_id
    WHERE d.task_id = ? AND dt.status <> 'done' AND dt.deleted_at IS NULL`;
  const unmet = await q.all<{ id: string; title: string; status: TaskStatus }>(
    `SELECT dt.id, dt.title, dt.status ${from} ORDER BY d.created_at, dt.id LIMIT ?`,
    [taskId, limit],
  );
  const total =
    unmet.length < limit
      ? unmet.length
      : ((await q.get<{ n: number }>(`SELECT COUNT(*) AS n ${from}`, [taskId]))?.n ?? 0);
  return { unmet, total };
}

/** Highest priority first, then oldest; seq (insertion order) breaks same-millisecond ties. */
export const ORDER_SQL = 'ORDER BY t.priority DESC, t.created_at ASC, t.seq ASC';

export interface TaskFilter {
  teamId?: string | undefined;
  status?: TaskStatus | undefined;
  ready?: boolean | undefined;
  /** Only tasks held by this agent (the dashboard's assignee filter). */
  assigneeAgentId?: string | undefined;
  limit?: number | undefined;
}

export function selectTasks(q: Queryable, filter: TaskFilter): Promise<TaskRow[]> {
  const where: string[] = ['t.deleted_at IS NULL'];
  const params: SqlValue[] = [];
  if (filter.teamId !== undefined) {
    where.push('t.team_id = ?');
    params.push(filter.teamId);
  }
  if (filter.status !== undefined) {
    where.push('t.status = ?');
    params.push(filter.status);
  }
  if (filter.assigneeAgentId !== undefined) {
    where.push('t.assignee_agent_id = ?');
    params.push(filter.assigneeAgentId);
  }
  if (filter.ready === true) where.push(READY_SQL);
  let sql = `SELECT t.* FROM tasks t WHERE ${where.join(' AND ')} ${ORDER_SQL}`;
  if (filter.limit !== undefined) {
    sql += ' LIMIT ?';
    params.push(filter.limit);
  }
  return q.all<TaskRow>(sql, params);
}

/**
 * The agent's current claim: its live in_progress task with an unexpired lease, the most
 * recently claimed or updated first (a renewal counts).
 */
export function selectClaimedBy(
  q: Queryable,
  agentId: string,
  now: number,
): Promise<TaskRow | undefined> {
  return q.get<TaskRow>(
    `SELECT t.* FROM tasks t
     WHERE t.status = 'in_progress' AND t.assignee_agent_id = ? AND t.deleted_at IS NULL
       AND (t.lease_expires_at IS NULL OR t.lease_expires_at > ?)
     ORDER BY t.updated_at DESC, t.seq DESC LIMIT 1`,
    [agentId, now],
  );
}

export function selectComments(q: Queryable, taskId: string): Promise<CommentRow[]> {
  return q.all<CommentRow>(
    'SELECT * FROM task_comments WHERE task_id = ? ORDER BY created_at ASC, seq ASC',
    [taskId],
  );
}

/** Ancestors from the root down to the direct parent. */
export async function selectAncestors(q: Queryable, task: TaskRow): Promise<TaskRow[]> {
  const chain: TaskRow[] = [];
  let parentId = task.parent_task_id;
  const seen = new Set<string>([task.id]);
  while (parentId !== null && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = await q.get<TaskRow>('SELECT * FROM tasks WHERE id = ?', [parentId]);
    if (parent === undefined) break;
    chain.unshift(parent);
    parentId = parent.parent_task_id;
  }
  return chain;
}

/** Live children of a parent (done and cancelled count; dropped do not). */
export async function countLiveChildren(q: Queryable, parentId: string): Promise<number> {
  const row = await q.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM tasks WHERE parent_task_id = ? AND deleted_at IS NULL',
    [parentId],
  );
  return row?.n ?? 0;
}

/** Root tasks created since `since` (epoch ms) by any surface, dropped ones included. */
export async function countRootsSince(q: Queryable, since: number): Promise<number> {
  const row = await q.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM tasks WHERE parent_task_id IS NULL AND created_at > ?',
    [since],
  );
  return row?.n ?? 0;
}

/** True when `from` already depends (directly or transitively) on `target`. */
export async function dependsOn(q: Queryable, from: string, target: string): Promise<boolean> {
  const row = await q.get<{ hit: number }>(
    `WITH RECURSIVE reach(id) AS (
       SELECT ?
       UNION
       SELECT d.depends_on_task_id FROM task_dependencies d JOIN reach r ON d.task_id = r.id
     )
     SELECT 1 AS hit FROM reach WHERE id = ? LIMIT 1`,
    [from, target],
  );
  return row !== undefined;
}
