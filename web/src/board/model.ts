// The board vocabulary the page uses, taken from the server's own pure module so the legal
// moves shown are exactly the ones the server enforces.
import {
  canMove,
  movesFrom,
  type Task,
  type TaskComment,
  type TaskEvent,
  TASK_STATUSES,
  type TaskStatus,
} from '../../../src/board/model.js';

export { canMove, movesFrom, TASK_STATUSES };
export type { Task, TaskComment, TaskEvent, TaskStatus };

/** A task as the board list returns it. */
export type BoardTask = Task & { ready: boolean };

export interface TaskDetail {
  task: Task;
  comments: TaskComment[];
  ancestors: Task[];
  children: Task[];
  dependencies: Task[];
  dependents: Task[];
  /** Status changes, oldest first (only the dashboard's detail route carries them). */
  history: TaskEvent[];
}

export const STATUS_LABELS: Readonly<Record<TaskStatus, string>> = {
  backlog: 'Backlog',
  todo: 'To do',
  in_progress: 'In progress',
  in_review: 'In review',
  blocked: 'Blocked',
  done: 'Done',
  cancelled: 'Cancelled',
};

/** True when `to` is a real move (not a no-op) the state machine allows from `from`. */
export const isDropTarget = (from: TaskStatus, to: TaskStatus): boolean =>
  from !== to && canMove(from, to);

export interface Filters {
  teamId: string;
  assignee: string;
  readyOnly: boolean;
}

export const NO_FILTERS: Filters = { teamId: '', assignee: '', readyOnly: false };

export function applyFilters(tasks: readonly BoardTask[], f: Filters): BoardTask[] {
  return tasks.filter(
    (t) =>
      (f.teamId === '' || t.teamId === f.teamId) &&
      (f.assignee === '' || t.assigneeAgentId === f.assignee) &&
      (!f.readyOnly || t.ready),
  );
}
