// The board's graph reads and edits for the dashboard: children, dependencies and dependents of
// a task, unlinking a dependency, and a cheap change mark that moves whenever anything a board
// view shows changes (tasks, comments, dependency edges). Reads only live tasks.
import type { Store } from '../store/index.js';
import type { BoardWrite } from './board-signal.js';
import type { Task } from './model.js';
import { mustFind } from './rows-ops.js';
import { toTask, type TaskRow } from './rows.js';

export interface TaskRelations {
  children: Task[];
  /** Tasks this one depends on. */
  dependencies: Task[];
  /** Tasks that depend on this one. */
  dependents: Task[];
  /**
   * Ids of every live task that depends on this one, directly or through others: making this
   * task depend on any of them would close a cycle (what the dashboard's picker leaves out).
   */
  upstreamIds: string[];
}

const CHILDREN = `SELECT t.* FROM tasks t WHERE t.parent_task_id = ? AND t.deleted_at IS NULL
  ORDER BY t.created_at ASC, t.seq ASC`;
const DEPENDENCIES = `SELECT t.* FROM task_dependencies d JOIN tasks t ON t.id = d.depends_on_task_id
  WHERE d.task_id = ? AND t.deleted_at IS NULL ORDER BY d.created_at ASC`;
const DEPENDENTS = `SELECT t.* FROM task_dependencies d JOIN tasks t ON t.id = d.task_id
  WHERE d.depends_on_task_id = ? AND t.deleted_at IS NULL ORDER BY d.created_at ASC`;
// Everything that reaches this task through dependency edges (the reverse of queries' dependsOn).
const UPSTREAM = `WITH RECURSIVE up(id) AS (
    SELECT d.task_id FROM task_dependencies d WHERE d.depends_on_task_id = ?
    UNION
    SELECT d.task_id FROM task_dependencies d JOIN up u ON d.depends_on_task_id = u.id
  )
  SELECT t.id FROM up JOIN tasks t ON t.id = up.id WHERE t.deleted_at IS NULL ORDER BY t.id`;

/** Relation operations over a store. */
export function createRelations({ store, write }: { store: Store; write: BoardWrite }) {
  return {
    /** Children, dependencies and dependents of a live task. @throws NotFoundError. */
    async getRelations(taskId: string): Promise<TaskRelations> {
      return store.read(async (tx) => {
        await mustFind(tx, taskId);
        const [children, dependencies, dependents, upstream] = [
          await tx.all<TaskRow>(CHILDREN, [taskId]),
          await tx.all<TaskRow>(DEPENDENCIES, [taskId]),
          await tx.all<TaskRow>(DEPENDENTS, [taskId]),
          await tx.all<{ id: string }>(UPSTREAM, [taskId]),
        ];
        return {
          children: children.map(toTask),
          dependencies: dependencies.map(toTask),
          dependents: dependents.map(toTask),
          upstreamIds: upstream.map((r) => r.id),
        };
      });
    },

    /** Removes the edge `taskId → dependsOnTaskId`; `removed: false` when there was none. */
    async unlinkTask(
      taskId: string,
      dependsOnTaskId: string,
    ): Promise<{ taskId: string; dependsOnTaskId: string; removed: boolean }> {
      return write(async (tx) => {
        await mustFind(tx, taskId);
        const res = await tx.run(
          'DELETE FROM task_dependencies WHERE task_id = ? AND depends_on_task_id = ?',
          [taskId, dependsOnTaskId],
        );
        return { taskId, dependsOnTaskId, removed: res.changes > 0 };
      });
    },

    /** An opaque string that changes when any task, comment or dependency edge changes. */
    async changeMark(): Promise<string> {
      const row = await store.get<Record<string, number | null>>(
        `SELECT (SELECT MAX(updated_at) FROM tasks) AS a, (SELECT COUNT(*) FROM tasks) AS b,
           (SELECT MAX(created_at) FROM task_comments) AS c, (SELECT COUNT(*) FROM task_comments) AS d,
           (SELECT MAX(created_at) FROM task_dependencies) AS e,
           (SELECT COUNT(*) FROM task_dependencies) AS f`,
      );
      return Object.values(row ?? {}).join(':');
    },
  };
}
