// Board vocabulary: task statuses, the legal moves between them, and the public shapes.
// Pure data and functions; no storage here.

export const TASK_STATUSES = [
  'backlog',
  'todo',
  'in_progress',
  'in_review',
  'blocked',
  'done',
  'cancelled',
] as const;

export type TaskStatus = (typeof TASK_STATUSES)[number];

export const AUTHOR_TYPES = ['agent', 'user', 'system'] as const;
export type AuthorType = (typeof AUTHOR_TYPES)[number];

const MOVES: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  backlog: ['todo', 'blocked', 'cancelled'],
  todo: ['in_progress', 'blocked', 'backlog', 'cancelled'],
  in_progress: ['in_review', 'done', 'blocked', 'todo', 'cancelled'],
  in_review: ['done', 'in_progress', 'blocked', 'cancelled'],
  blocked: ['todo', 'in_progress', 'backlog', 'cancelled'],
  done: [],
  cancelled: [],
};

/** True when `from → to` is a legal move. The same status is a legal no-op. */
export function canMove(from: TaskStatus, to: TaskStatus): boolean {
  return from === to || MOVES[from].includes(to);
}

/** The statuses reachable from `from` (for error messages). */
export function movesFrom(from: TaskStatus): readonly TaskStatus[] {
  return MOVES[from];
}

export interface Task {
  id: string;
  teamId: string | null;
  parentTaskId: string | null;
  depth: number;
  title: string;
  description: string;
  status: TaskStatus;
  priority: number;
  assigneeAgentId: string | null;
  assigneeRuntime: string | null;
  leaseExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TaskComment {
  id: string;
  taskId: string;
  body: string;
  authorAgentId: string | null;
  authorType: AuthorType;
  createdAt: string;
}

/** One recorded status change (`fromStatus` is null for a task's creation). */
export interface TaskEvent {
  id: number;
  taskId: string;
  at: string;
  fromStatus: TaskStatus | null;
  toStatus: TaskStatus;
  /** The agent (or `user`, `lease`) that made the change, when known. */
  actor: string | null;
  /** The MCP client (its self-reported clientInfo name) of the session that made it, if known. */
  actorClient: string | null;
  /** How the change came: an MCP session over `stdio` or `http`, or the `dashboard`. */
  actorVia: ActorVia | null;
  reason: string | null;
}

/** The ways a change reaches the board that the history names. */
export const ACTOR_VIAS = ['stdio', 'http', 'dashboard'] as const;
export type ActorVia = (typeof ACTOR_VIAS)[number];

/** Board limits. The defaults are the spec's. */
export interface BoardLimits {
  maxChildren: number;
  maxDepth: number;
  rootRateMax: number;
  rootRateWindowMs: number;
}

export const DEFAULT_LIMITS: BoardLimits = {
  maxChildren: 24,
  maxDepth: 2,
  rootRateMax: 30,
  rootRateWindowMs: 5 * 60_000,
};

export const DEFAULT_LEASE_MS = 15 * 60_000;
