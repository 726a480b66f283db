// The board service: every task mutation, each in one write transaction that re-reads the row
// it decides on. Caps apply only to the capped create (the MCP boundary); reads are scoped by
// the caller's filter, never by trust in the model.
import { type Queryable, ROW_LOCKS, type Store } from '../store/index.js';
import { boardWriter, onBoardSignal, signalBoard } from './board-signal.js';
import { insertCappedTask } from './caps.js';
import { createClaims } from './claims.js';
import { assignNew, writeComment } from './delegation.js';
import { cycle, parentNotFound, taskNotFound, TransitionError } from './errors.js';
import { type RecordedActor, selectHistory } from './events.js';
import {
  type BoardLimits,
  canMove,
  DEFAULT_LEASE_MS,
  DEFAULT_LIMITS,
  movesFrom,
  type Task,
  type TaskComment,
  type TaskEvent,
  type TaskStatus,
} from './model.js';
import {
  dependsOn,
  findTask,
  selectAncestors,
  selectClaimedBy,
  selectComments,
  selectTasks,
  type TaskFilter,
} from './queries.js';
import { createRelations } from './relations.js';
import {
  applyMove,
  assertHolder,
  hasExpired,
  insertTask,
  mustFind,
  recordedActor,
  sweepExpired,
} from './rows-ops.js';
import { type TaskRow, toComment, toTask } from './rows.js';
import type {
  Actor,
  BoardOptions,
  CommentInput,
  CreateTaskInput,
  DelegatedTaskInput,
  TaskDetail,
} from './types.js';

export type Board = ReturnType<typeof createBoard>;

/** Builds the board service over a store. */
export function createBoard(store: Store, options: BoardOptions = {}) {
  const clock = options.clock ?? Date.now;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const limits: BoardLimits = { ...DEFAULT_LIMITS, ...options.limits };
  // Every board write wakes the board's waiters once it commits (all replicas on PostgreSQL).
  const write = boardWriter(store);

  async function move(
    taskId: string,
    to: TaskStatus,
    actor: Actor,
    how: { prefix: string; reason: string; requireFrom?: readonly TaskStatus[] },
  ): Promise<Task> {
    const { prefix, requireFrom } = how;
    return write(async (tx) => {
      const now = clock();
      const row = await mustFind(tx, taskId);
      if (requireFrom !== undefined && !requireFrom.includes(row.status)) {
        throw new TransitionError(
          `${prefix}task ${taskId} is ${row.status}, not ${requireFrom[0]}`,
        );
      }
      if (row.status === to) return toTask(row);
      if (!canMove(row.status, to)) {
        const legal = movesFrom(row.status);
        const hint =
          legal.length === 0 ? `${row.status} is terminal` : `allowed: ${legal.join(', ')}`;
        throw new TransitionError(`${prefix}cannot move ${row.status} → ${to} (${hint})`);
      }
      assertHolder(row, actor, prefix);
      const at = { now, leaseMs, by: recordedActor(actor), reason: how.reason };
      return toTask(await applyMove(tx, row, to, at));
    });
  }

  const insertCapped = (tx: Queryable, input: CreateTaskInput, by: RecordedActor, now: number) =>
    insertCappedTask(tx, { input, by, now, limits });

  const claims = createClaims({ write, clock, leaseMs });
  const relations = createRelations({ store, write });

  /** Reads sweep first, but open a write transaction only when something has expired. */
  async function sweepIfExpired(): Promise<void> {
    const now = clock();
    if (await hasExpired(store, now)) await write((tx) => sweepExpired(tx, now), ROW_LOCKS);
  }

  return {
    limits,
    leaseMs,

    /** Lists live tasks; `ready` keeps only claimable todo work. */
    async listTasks(filter: TaskFilter): Promise<Task[]> {
      await sweepIfExpired();
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
      await sweepIfExpired();
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

    /** True when `taskId` names a live (not dropped) task. */
    async taskExists(taskId: string): Promise<boolean> {
      return (await findTask(store, taskId)) !== undefined;
    },

    /** The task `agentId` holds in_progress (unexpired lease; newest claim or update), or null. */
    async claimedTaskOf(agentId: string): Promise<Task | null> {
      const row = await selectClaimedBy(store, agentId, clock());
      return row === undefined ? null : toTask(row);
    },

    /** Uncapped create (REST, orchestrator): parent must exist, no cap checks. */
    async createTask(input: CreateTaskInput, actor: Actor = {}): Promise<Task> {
      return write(async (tx) => {
        const now = clock();
        let parent: TaskRow | undefined;
        if (input.parentTaskId !== undefined) {
          parent = await findTask(tx, input.parentTaskId);
          if (parent === undefined) throw parentNotFound(input.parentTaskId);
        }
        return toTask(await insertTask(tx, input, parent, now, recordedActor(actor)));
      });
    },

    /**
     * Capped create (the MCP boundary): depth and child caps for subtasks, the rolling root
     * rate for roots, checked and inserted in one write transaction.
     * @throws NotFoundError (parent_not_found) or PolicyError (depth_cap, child_cap, root_rate_cap).
     */
    createCappedTask: (input: CreateTaskInput, actor: Actor = {}): Promise<Task> =>
      write(async (tx) => toTask(await insertCapped(tx, input, recordedActor(actor), clock()))),

    /**
     * The capped create inside the caller's write transaction `tx` (the refusal circuit's, so
     * its open-check and the create commit as one). Same caps and errors as createCappedTask.
     */
    createCappedTaskIn: async (
      tx: Queryable,
      input: CreateTaskInput,
      actor: Actor = {},
    ): Promise<Task> => {
      const task = toTask(await insertCapped(tx, input, recordedActor(actor), clock()));
      await signalBoard(store, tx);
      return task;
    },

    /**
     * A delegated task in one write transaction: the capped create, its assignment to
     * `assignee` by `by`, the comment `note`, and `within` (the caller's own rows, e.g. its
     * audit row), so a crash or a failed step never leaves half a delegation behind.
     * @throws as createCappedTask, or whatever `within` throws.
     */
    async createDelegatedTask(
      input: DelegatedTaskInput,
      within?: (tx: Queryable, task: Task) => Promise<void>,
    ): Promise<Task> {
      const { assignee, by, note } = input;
      return write(async (tx) => {
        const now = clock();
        const created = await insertCapped(
          tx,
          { ...input.task, status: 'todo' },
          { actor: by },
          now,
        );
        const row = await assignNew(tx, created, { assignee, by, now, leaseMs });
        await writeComment(tx, row, { taskId: row.id, body: note, authorAgentId: by }, now);
        const task = toTask(row);
        await within?.(tx, task);
        return task;
      });
    },

    ...claims,
    ...relations,

    /** in_progress → todo, clearing the assignee. */
    releaseTask: (taskId: string, actor: Actor = {}): Promise<Task> =>
      move(taskId, 'todo', actor, {
        prefix: 'release failed: ',
        reason: 'release',
        requireFrom: ['in_progress'],
      }),

    updateStatus: (taskId: string, status: TaskStatus, actor: Actor = {}): Promise<Task> =>
      move(taskId, status, actor, { prefix: 'status change failed: ', reason: 'status' }),

    blockTask: (taskId: string, actor: Actor = {}): Promise<Task> =>
      move(taskId, 'blocked', actor, { prefix: 'block failed: ', reason: 'block' }),

    unblockTask: (taskId: string, actor: Actor = {}): Promise<Task> =>
      move(taskId, 'todo', actor, {
        prefix: 'unblock failed: ',
        reason: 'unblock',
        requireFrom: ['blocked', 'todo'],
      }),

    /** A task's status changes, oldest first. @throws NotFoundError for an unknown task. */
    async history(taskId: string): Promise<TaskEvent[]> {
      await sweepIfExpired();
      return store.read(async (tx) => {
        await mustFind(tx, taskId);
        return selectHistory(tx, taskId);
      });
    },

    /** Appends a comment. @throws NotFoundError for an unknown task. */
    async addComment(input: CommentInput): Promise<TaskComment> {
      // Row locks suffice: a comment decides nothing (its holder's inbox entry is as of the
      // comment, as if it came first), and its number comes from a sequence.
      return write(
        async (tx) =>
          toComment(await writeComment(tx, await mustFind(tx, input.taskId), input, clock())),
        ROW_LOCKS,
      );
    },

    /** Calls `listener` after each committed board write (every replica's on PostgreSQL). */
    onChange: (listener: () => void): (() => void) => onBoardSignal(store, listener),

    /** Whether onChange hears other processes (PostgreSQL) or this one only (SQLite). */
    signalsEverywhere: store.signals.reach === 'database',

    /**
     * Makes `taskId` depend on `dependsOnTaskId`. Re-linking is a no-op.
     * @throws NotFoundError, or a `cycle` DomainError when the edge would close a cycle.
     */
    async linkTask(
      taskId: string,
      dependsOnTaskId: string,
    ): Promise<{ taskId: string; dependsOnTaskId: string; created: boolean }> {
      return write(async (tx) => {
        await mustFind(tx, taskId);
        await mustFind(tx, dependsOnTaskId);
        if (taskId === dependsOnTaskId || (await dependsOn(tx, dependsOnTaskId, taskId))) {
          throw cycle(taskId, dependsOnTaskId);
        }
        const res = await tx.run(
          `INSERT INTO task_dependencies (task_id, depends_on_task_id, created_at) VALUES (?, ?, ?)
           ON CONFLICT (task_id, depends_on_task_id) DO NOTHING`,
          [taskId, dependsOnTaskId, clock()],
        );
        return { taskId, dependsOnTaskId, created: res.changes > 0 };
      });
    },

    /** Soft-deletes a task: it disappears from reads and frees its parent's child slot. */
    async dropTask(taskId: string): Promise<void> {
      await write(async (tx) => {
        const now = clock();
        await mustFind(tx, taskId);
        await tx.run('UPDATE tasks SET deleted_at = ?, updated_at = ? WHERE id = ?', [
          now,
          now,
          taskId,
        ]);
      });
    },

    /**
     * Returns every expired claim to todo; returns how many (0 when another process on the
     * store is sweeping right now: the sweep runs once across replicas).
     */
    sweepExpiredLeases: async (): Promise<number> => {
      const run = await store.locks.tryRun('board:lease-sweep', () =>
        write((tx) => sweepExpired(tx, clock()), ROW_LOCKS),
      );
      return run.ran ? run.value : 0;
    },
  };
}
