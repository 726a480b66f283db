// Input and output shapes of the board services.
import type { ActorVia, AuthorType, BoardLimits, Task, TaskComment, TaskStatus } from './model.js';

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
  /** Recorded in the history: `assign` names `assignedBy` (when known) as the actor. */
  via?: 'claim' | 'assign' | undefined;
  assignedBy?: string | undefined;
  /** The session the claim came through, for the history (see {@link Actor}). */
  origin?: ActorOrigin | undefined;
}

/** A task handed to a teammate (team_delegate): created todo, then assigned and noted. */
export interface DelegatedTaskInput {
  task: Omit<CreateTaskInput, 'status'>;
  assignee: string;
  /** The delegating agent: the creator, the assigner and the note's author. */
  by: string;
  note: string;
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
  /** Recorded in the history when there is no `agentId` (e.g. `user`); never checked. */
  name?: string | undefined;
  /** The MCP client name (clientInfo) of the acting session; recorded, never trusted. */
  client?: string | undefined;
  /** How the change came (`stdio`, `http`, `dashboard`); recorded in the history. */
  via?: ActorVia | undefined;
}

/** The session part of an {@link Actor}: which client, over what. */
export type ActorOrigin = Pick<Actor, 'client' | 'via'>;

export interface TaskDetail {
  task: Task;
  comments: TaskComment[];
  ancestors: Task[];
}
