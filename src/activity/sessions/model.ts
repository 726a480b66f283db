// Agent sessions' vocabulary: statuses, the session, tool call and delegation records the
// service returns, and the list's honest status. A model file: the dashboard compiles it, so it
// imports nothing. Times are epoch ms (façades send ISO 8601).

/** Session statuses; the last three end a session (ended_at is set, the status is final). */
export const SESSION_STATUSES = ['active', 'paused', 'completed', 'failed', 'abandoned'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export const ENDED_STATUSES: readonly SessionStatus[] = ['completed', 'failed', 'abandoned'];

/** Delegation statuses; `completed`, `failed` and `cancelled` end the child session too. */
export const DELEGATION_STATUSES = ['started', 'completed', 'failed', 'cancelled'] as const;
export type DelegationStatus = (typeof DELEGATION_STATUSES)[number];

export interface Session {
  id: string;
  parentSessionId: string | null;
  status: SessionStatus;
  agentType: string | null;
  agentProgram: string | null;
  modelId: string | null;
  repoId: string | null;
  repoPath: string | null;
  projectId: string | null;
  worktreeId: string | null;
  operatorId: string | null;
  machineId: string | null;
  /** True for a child session a delegation created or linked. */
  delegated: boolean;
  title: string | null;
  /** What the caller stored with it (goal, outcome, open_items, metadata), scrubbed. */
  data: Record<string, unknown>;
  /** The execution provenance of the call that started it. */
  provenance: Record<string, unknown>;
  startedAt: number;
  updatedAt: number;
  endedAt: number | null;
  counts: { toolCalls: number; errors: number; delegations: number };
  /** The memory holding its latest summary, once summarized. */
  summaryId: string | null;
}

export interface ToolCall {
  id: string;
  sessionId: string;
  /** 1, 2, … in the order the session logged them. */
  seq: number;
  toolName: string;
  status: 'ok' | 'error';
  /** The call's arguments as logged (scrubbed of secrets). */
  args: Record<string, unknown>;
  result: string | null;
  error: string | null;
  durationMs: number | null;
  /** Files the call touched: `data.files` and path-like arguments. */
  files: string[];
  createdAt: number;
}

export interface Delegation {
  id: string;
  parentSessionId: string;
  childSessionId: string;
  seq: number;
  agentType: string | null;
  task: string | null;
  status: DelegationStatus;
  result: string | null;
  createdAt: number;
}

/**
 * Why a list holds what it holds: `ok`; `empty` (no session stored at all); `filtered_out`
 * (sessions exist, the filters admit none).
 */
export type SessionListStatus = 'ok' | 'empty' | 'filtered_out';

export interface SessionList {
  status: SessionListStatus;
  message: string;
  /** Newest first. */
  sessions: Session[];
  /** How many pass the filters (before the limit). */
  matching: number;
  /** How many sessions exist in all. */
  stored: number;
  truncated: boolean;
}

/** One session with its activity, in order (get_session, the dashboard's timeline). */
export interface SessionDetail {
  session: Session;
  toolCalls: ToolCall[];
  delegations: Delegation[];
  /** The sessions this one delegated to. */
  children: Session[];
  /** True when the activity lists were cut at their limit. */
  truncated: boolean;
}
