// Row ↔ shape mapping for the board tables. Timestamps are stored as epoch ms, shown as ISO.
import type { AuthorType, Task, TaskComment, TaskStatus } from './model.js';

export interface TaskRow {
  id: string;
  team_id: string | null;
  parent_task_id: string | null;
  depth: number;
  title: string;
  description: string;
  status: TaskStatus;
  priority: number;
  assignee_agent_id: string | null;
  assignee_runtime: string | null;
  lease_expires_at: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface CommentRow {
  id: string;
  task_id: string;
  body: string;
  author_agent_id: string | null;
  author_type: AuthorType;
  created_at: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    teamId: row.team_id,
    parentTaskId: row.parent_task_id,
    depth: row.depth,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    assigneeAgentId: row.assignee_agent_id,
    assigneeRuntime: row.assignee_runtime,
    leaseExpiresAt: row.lease_expires_at === null ? null : iso(row.lease_expires_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function toComment(row: CommentRow): TaskComment {
  return {
    id: row.id,
    taskId: row.task_id,
    body: row.body,
    authorAgentId: row.author_agent_id,
    authorType: row.author_type,
    createdAt: iso(row.created_at),
  };
}
