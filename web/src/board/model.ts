// The board vocabulary the page uses, taken from the server's own pure module so the legal
// moves shown are exactly the ones the server enforces.
import {
  type ActorVia,
  canMove,
  movesFrom,
  type Task,
  type TaskComment,
  type TaskEvent,
  TASK_STATUSES,
  type TaskStatus,
} from '../../../src/board/model.js';
import type { TaskApprovalMark } from '../../../src/broker/model.js';
import type { Wire } from '../wire.js';

export { canMove, movesFrom, TASK_STATUSES };
export type { Task, TaskComment, TaskEvent, TaskStatus };

/** A broker call of this task waiting for a human (`GET /api/board/tasks` marks). */
export type PendingMark = Pick<Wire<TaskApprovalMark>, 'id' | 'tool' | 'expiresAt'>;

/** A task as the board list returns it. */
export type BoardTask = Task & { ready: boolean; pendingApprovals: PendingMark[] };

/** The lane of tasks with a pending approval. Never a drop target: only statuses are. */
export const NEEDS_APPROVAL = 'needs-approval';
/** A board column: the Needs approval lane, then one per status. */
export type Lane = typeof NEEDS_APPROVAL | TaskStatus;
export const LANES: readonly Lane[] = [NEEDS_APPROVAL, ...TASK_STATUSES];

/** The lane a card sits in: Needs approval while a call waits, else its status column. */
export const laneOf = (t: BoardTask): Lane =>
  t.pendingApprovals.length > 0 ? NEEDS_APPROVAL : t.status;

export interface TaskDetail {
  task: Task;
  comments: TaskComment[];
  ancestors: Task[];
  children: Task[];
  dependencies: Task[];
  dependents: Task[];
  /** Every task depending on this one, transitively: linking to one would close a cycle. */
  upstreamIds: string[];
  /** Status changes, oldest first (only the dashboard's detail route carries them). */
  history: TaskEvent[];
}

/**
 * True for the one event migration 13 gave a task older than the event log: its status then,
 * by an unknown actor, with a reason starting `back-filled` (the migration's stable prefix).
 */
export const isBackfilled = (e: Pick<TaskEvent, 'reason'>): boolean =>
  e.reason?.startsWith('back-filled') === true;

const VIA_LABELS: Readonly<Record<ActorVia, string>> = {
  stdio: 'stdio',
  http: 'HTTP',
  dashboard: 'dashboard',
};

/** Said of an event that names no actor, client or transport. */
export const UNRECORDED_ACTOR = 'an unrecorded session';
export const UNRECORDED_HINT =
  'Written before Cairn recorded the client and transport of each change (migration 19), or by a caller that names neither.';

/**
 * Who made a change, as the history says it: `user via dashboard`, `claude-code via stdio` (an
 * unbound session: its client), `builder (claude-code via HTTP)` (a bound agent and its client).
 */
export function actorLabel(e: Pick<TaskEvent, 'actor' | 'actorClient' | 'actorVia'>): string {
  const via = e.actorVia === null ? '' : ` via ${VIA_LABELS[e.actorVia]}`;
  if (e.actor !== null)
    return e.actorClient === null ? `${e.actor}${via}` : `${e.actor} (${e.actorClient}${via})`;
  if (e.actorClient !== null) return `${e.actorClient}${via}`;
  return via === '' ? UNRECORDED_ACTOR : `an unnamed client${via}`;
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

export const LANE_LABELS: Readonly<Record<Lane, string>> = {
  [NEEDS_APPROVAL]: 'Needs approval',
  ...STATUS_LABELS,
};

/**
 * True when `to` is a real move (not a no-op) the state machine allows from `from`. The Needs
 * approval lane never is: a task leaves it when its call is decided, not by a drop.
 */
export const isDropTarget = (from: TaskStatus, to: Lane): boolean =>
  to !== NEEDS_APPROVAL && from !== to && canMove(from, to);

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
