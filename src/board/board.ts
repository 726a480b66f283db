// The board service: every task mutation, each in one write transaction that re-reads the row
// it decides on. Caps apply only to the capped create (the MCP boundary); reads are scoped by
// the caller's filter, never by trust in the model.
import { randomUUID } from 'node:crypto';

import type { Queryable, Store } from '../store/index.js';
import {
  childCap,
  claimConflict,
  cycle,
  depthCap,
  NotHolderError,
  parentNotFound,
  rootRateCap,
  taskNotFound,
  TransitionError,
} from './errors.js';
import {
  type AuthorType,
  type BoardLimits,
  canMove,
  DEFAULT_LEASE_MS,
  DEFAULT_LIMITS,
  movesFrom,
  type Task,
  type TaskComment,
  type TaskStatus,
} from './model.js';
import {
  countLiveChildren,
  countRootsSince,
  dependsOn,
  findTask,
  ORDER_SQL,
  READY_SQL,
  selectAncestors,
  selectComments,
  selectTasks,
  type TaskFilter,
} from './queries.js';
import { type CommentRow, type TaskRow, toComment, toTask } from './rows.js';

export interface BoardOptions {
  /** Milliseconds since the epoch; injectable for tests. */
  clock?: () => number;
  /** How long a claim holds before the sweep may return it to `todo`. */
  leaseMs?: number;
  limits?: Partial<BoardLimits>;
}

export interface CreateTaskInput {
  title: string;
  description?: string | undefined;
  status?: TaskStatus | undefined;
  priority?: number | undefined;
  teamId?: string | undefined;
  parentTaskId?: string | undefined;
  assigneeRuntime?: string | undefined;
}

export interface ClaimInput {
  taskId: string;
  assigneeAgentId: string;
  assigneeRuntime?: string | undefined;
}

export interface CommentInput {
  taskId: string;
  body: string;
  authorAgentId?: string | undefined;
  authorType?: AuthorType | undefined;
}

/** Who is acting, when known (a bound session). Unknown actors skip the holder check. */
export interface Actor {
  agentId?: string | undefined;
}

export interface TaskDetail {
  task: Task;
  comments: TaskComment[];
  ancestors: Task[];
}

const HELD: readonly TaskStatus[] = ['in_progress', 'in_review'];

export type Board = ReturnType<typeof createBoard>;

/** Builds the board service over a store. */
export function createBoard(store: Store, options: BoardOptions = {}) {
  const clock = options.clock ?? Date.now;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const limits: BoardLimits = { ...DEFAULT_LIMITS, ...options.limits };

  async function insertComment(
    tx: Queryable,
    input: CommentInput,
    now: number,
  ): Promise<CommentRow> {
    const row: CommentRow = {
      id: randomUUID(),
      task_id: input.taskId,
      body: input.body,
      author_agent_id: input.authorAgentId ?? null,
      author_type: input.authorType ?? 'agent',
      created_at: now,
    };
    await tx.run(
      'INSERT INTO task_comments (id, task_id, body, author_agent_id, author_type, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [row.id, row.task_id, row.body, row.author_agent_id, row.author_type, row.created_at],
    );
    return row;
  }

  /** Returns expired in_progress claims to todo, each with a system comment. */
  async function sweepIn(tx: Queryable, now: number): Promise<number> {
    const expired = await tx.all<TaskRow>(
      "SELECT * FROM tasks WHERE status = 'in_progress' AND lease_expires_at IS NOT NULL AND lease_expires_at <= ? AND deleted_at IS NULL",
      [now],
    );
    for (const row of expired) {
      await tx.run(
        "UPDATE tasks SET status = 'todo', assignee_agent_id = NULL, assignee_runtime = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?",
        [now, row.id],
      );
      const body = `lease expired: claim by ${row.assignee_agent_id ?? 'unknown'} returned the task to todo`;
      await insertComment(tx, { taskId: row.id, body, authorType: 'system' }, now);
    }
    return expired.length;
  }

  async function hasExpired(now: number): Promise<boolean> {
    const row = await store.get<{ x: number }>(
      "SELECT 1 AS x FROM tasks WHERE status = 'in_progress' AND lease_expires_at IS NOT NULL AND lease_expires_at <= ? LIMIT 1",
      [now],
    );
    return row !== undefined;
  }

  async function mustFind(tx: Queryable, id: string): Promise<TaskRow> {
    const row = await findTask(tx, id);
    if (row === undefined) throw taskNotFound(id);
    return row;
  }

  function assertHolder(row: TaskRow, actor: Actor, prefix: string): void {
    const agent = actor.agentId;
    const holder = row.assignee_agent_id;
    if (agent === undefined || holder === null || !HELD.includes(row.status)) return;
    if (holder !== agent) {
      throw new NotHolderError(`${prefix}task ${row.id} is held by ${holder}, not ${agent}`);
    }
  }

  async function insertTask(
    tx: Queryable,
    input: CreateTaskInput,
    parent: TaskRow | undefined,
    now: number,
  ): Promise<TaskRow> {
    const row: TaskRow = {
      id: randomUUID(),
      team_id: input.teamId ?? parent?.team_id ?? null,
      parent_task_id: parent?.id ?? null,
      depth: parent === undefined ? 0 : parent.depth + 1,
      title: input.title,
      description: input.description ?? '',
      status: input.status ?? 'todo',
      priority: input.priority ?? 0,
      assignee_agent_id: null,
      assignee_runtime: input.assigneeRuntime ?? null,
      lease_expires_at: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await tx.run(
      `INSERT INTO tasks (id, team_id, parent_task_id, depth, title, description, status, priority,
        assignee_agent_id, assignee_runtime, lease_expires_at, created_at, updated_at, deleted_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.team_id,
        row.parent_task_id,
        row.depth,
        row.title,
        row.description,
        row.status,
        row.priority,
        row.assignee_agent_id,
        row.assignee_runtime,
        row.lease_expires_at,
        row.created_at,
        row.updated_at,
        row.deleted_at,
      ],
    );
    return row;
  }

  async function move(taskId: string, to: TaskStatus, actor: Actor, prefix: string): Promise<Task> {
    return store.write(async (tx) => {
      const now = clock();
      const row = await mustFind(tx, taskId);
      if (row.status === to) return toTask(row);
      if (!canMove(row.status, to)) {
        const legal = movesFrom(row.status);
        const hint =
          legal.length === 0 ? `${row.status} is terminal` : `allowed: ${legal.join(', ')}`;
        throw new TransitionError(`${prefix}cannot move ${row.status} → ${to} (${hint})`);
      }
      assertHolder(row, actor, prefix);
      const assignee = to === 'todo' ? null : row.assignee_agent_id;
      const runtime = to === 'todo' ? null : row.assignee_runtime;
      const lease = to === 'in_progress' && assignee !== null ? now + leaseMs : null;
      await tx.run(
        'UPDATE tasks SET status = ?, assignee_agent_id = ?, assignee_runtime = ?, lease_expires_at = ?, updated_at = ? WHERE id = ?',
        [to, assignee, runtime, lease, now, row.id],
      );
      return toTask({
        ...row,
        status: to,
        assignee_agent_id: assignee,
        assignee_runtime: runtime,
        lease_expires_at: lease,
        updated_at: now,
      });
    });
  }

  return {
    limits,
    leaseMs,

    /** Lists live tasks; `ready` keeps only claimable todo work. */
    async listTasks(filter: TaskFilter): Promise<Task[]> {
      const now = clock();
      if (await hasExpired(now)) await store.write((tx) => sweepIn(tx, now));
      return (await selectTasks(store, filter)).map(toTask);
    },

    /**
     * A task with its comments and ancestors (root first).
     * @throws NotFoundError when missing, dropped, or outside `teamId` when one is given.
     */
    async getTask(
      taskId: string,
      scope: { teamId?: string | undefined } = {},
    ): Promise<TaskDetail> {
      return store.read(async (tx) => {
        const row = await findTask(tx, taskId);
        if (row === undefined || (scope.teamId !== undefined && row.team_id !== scope.teamId)) {
          throw taskNotFound(taskId);
        }
        const [comments, ancestors] = [
          await selectComments(tx, taskId),
          await selectAncestors(tx, row),
        ];
        return {
          task: toTask(row),
          comments: comments.map(toComment),
          ancestors: ancestors.map(toTask),
        };
      });
    },

    /** Uncapped create (REST, orchestrator): parent must exist, no cap checks. */
    async createTask(input: CreateTaskInput): Promise<Task> {
      return store.write(async (tx) => {
        const now = clock();
        let parent: TaskRow | undefined;
        if (input.parentTaskId !== undefined) {
          parent = await findTask(tx, input.parentTaskId);
          if (parent === undefined) throw parentNotFound(input.parentTaskId);
        }
        return toTask(await insertTask(tx, input, parent, now));
      });
    },

    /**
     * Capped create (the MCP boundary): depth and child caps for subtasks, the rolling root
     * rate for roots, checked and inserted in one write transaction.
     * @throws NotFoundError (parent_not_found) or PolicyError (depth_cap, child_cap, root_rate_cap).
     */
    async createCappedTask(input: CreateTaskInput): Promise<Task> {
      return store.write(async (tx) => {
        const now = clock();
        if (input.parentTaskId === undefined) {
          const recent = await countRootsSince(tx, now - limits.rootRateWindowMs);
          if (recent >= limits.rootRateMax) throw rootRateCap(recent, limits);
          return toTask(await insertTask(tx, input, undefined, now));
        }
        const parent = await findTask(tx, input.parentTaskId);
        if (parent === undefined) throw parentNotFound(input.parentTaskId);
        if (parent.depth >= limits.maxDepth) throw depthCap(limits);
        const children = await countLiveChildren(tx, parent.id);
        if (children >= limits.maxChildren) throw childCap(children, limits);
        return toTask(await insertTask(tx, input, parent, now));
      });
    },

    /**
     * Atomic claim: one conditional UPDATE on a todo, unassigned, live task.
     * @throws NotFoundError, or ConflictError when another agent holds it.
     */
    async claimTask(input: ClaimInput): Promise<Task> {
      return store.write(async (tx) => {
        const now = clock();
        await sweepIn(tx, now);
        const res = await tx.run(
          `UPDATE tasks SET status = 'in_progress', assignee_agent_id = ?, assignee_runtime = ?,
             lease_expires_at = ?, updated_at = ?
           WHERE id = ? AND status = 'todo' AND assignee_agent_id IS NULL AND deleted_at IS NULL`,
          [input.assigneeAgentId, input.assigneeRuntime ?? null, now + leaseMs, now, input.taskId],
        );
        const row = await mustFind(tx, input.taskId);
        if (res.changes === 0) throw claimConflict(row.id, row.status, row.assignee_agent_id);
        return toTask(row);
      });
    },

    /** Claims the highest-priority ready task (oldest first on ties), or returns null. */
    async claimNextReady(input: {
      assigneeAgentId: string;
      assigneeRuntime?: string | undefined;
      teamId?: string | undefined;
    }): Promise<Task | null> {
      return store.write(async (tx) => {
        const now = clock();
        await sweepIn(tx, now);
        const team = input.teamId === undefined ? '' : 'AND t.team_id = ?';
        const params = input.teamId === undefined ? [] : [input.teamId];
        const next = await tx.get<TaskRow>(
          `SELECT t.* FROM tasks t WHERE ${READY_SQL} ${team} ${ORDER_SQL} LIMIT 1`,
          params,
        );
        if (next === undefined) return null;
        await tx.run(
          "UPDATE tasks SET status = 'in_progress', assignee_agent_id = ?, assignee_runtime = ?, lease_expires_at = ?, updated_at = ? WHERE id = ? AND status = 'todo'",
          [input.assigneeAgentId, input.assigneeRuntime ?? null, now + leaseMs, now, next.id],
        );
        return toTask(await mustFind(tx, next.id));
      });
    },

    /**
     * Extends the holder's lease by the configured lease length from now.
     * @throws NotFoundError, or NotHolderError when the caller does not hold the claim.
     */
    async renewClaim(input: { taskId: string; assigneeAgentId: string }): Promise<Task> {
      return store.write(async (tx) => {
        const now = clock();
        await sweepIn(tx, now);
        const row = await mustFind(tx, input.taskId);
        if (row.status !== 'in_progress' || row.assignee_agent_id !== input.assigneeAgentId) {
          const held =
            row.assignee_agent_id === null ? 'unclaimed' : `held by ${row.assignee_agent_id}`;
          throw new NotHolderError(
            `renew failed: task ${row.id} is ${row.status}, ${held}; claim it again instead`,
          );
        }
        const lease = now + leaseMs;
        await tx.run('UPDATE tasks SET lease_expires_at = ?, updated_at = ? WHERE id = ?', [
          lease,
          now,
          row.id,
        ]);
        return toTask({ ...row, lease_expires_at: lease, updated_at: now });
      });
    },

    /** in_progress → todo, clearing the assignee. */
    async releaseTask(taskId: string, actor: Actor = {}): Promise<Task> {
      const current = await findTask(store, taskId);
      if (current !== undefined && current.status !== 'in_progress') {
        throw new TransitionError(
          `release failed: task ${taskId} is ${current.status}, not in_progress`,
        );
      }
      return move(taskId, 'todo', actor, 'release failed: ');
    },

    updateStatus: (taskId: string, status: TaskStatus, actor: Actor = {}): Promise<Task> =>
      move(taskId, status, actor, 'status change failed: '),

    blockTask: (taskId: string, actor: Actor = {}): Promise<Task> =>
      move(taskId, 'blocked', actor, 'block failed: '),

    unblockTask: (taskId: string, actor: Actor = {}): Promise<Task> =>
      move(taskId, 'todo', actor, 'unblock failed: '),

    /** Appends a comment. @throws NotFoundError for an unknown task. */
    async addComment(input: CommentInput): Promise<TaskComment> {
      return store.write(async (tx) => {
        await mustFind(tx, input.taskId);
        return toComment(await insertComment(tx, input, clock()));
      });
    },

    /**
     * Makes `taskId` depend on `dependsOnTaskId`. Re-linking is a no-op.
     * @throws NotFoundError, or a `cycle` DomainError when the edge would close a cycle.
     */
    async linkTask(
      taskId: string,
      dependsOnTaskId: string,
    ): Promise<{ taskId: string; dependsOnTaskId: string; created: boolean }> {
      return store.write(async (tx) => {
        await mustFind(tx, taskId);
        await mustFind(tx, dependsOnTaskId);
        if (taskId === dependsOnTaskId || (await dependsOn(tx, dependsOnTaskId, taskId))) {
          throw cycle(taskId, dependsOnTaskId);
        }
        const res = await tx.run(
          'INSERT OR IGNORE INTO task_dependencies (task_id, depends_on_task_id, created_at) VALUES (?, ?, ?)',
          [taskId, dependsOnTaskId, clock()],
        );
        return { taskId, dependsOnTaskId, created: res.changes > 0 };
      });
    },

    /** Soft-deletes a task: it disappears from reads and frees its parent's child slot. */
    async dropTask(taskId: string): Promise<void> {
      await store.write(async (tx) => {
        const now = clock();
        await mustFind(tx, taskId);
        await tx.run('UPDATE tasks SET deleted_at = ?, updated_at = ? WHERE id = ?', [
          now,
          now,
          taskId,
        ]);
      });
    },

    /** Returns every expired claim to todo; returns how many. */
    sweepExpiredLeases: (): Promise<number> => store.write((tx) => sweepIn(tx, clock())),
  };
}
