// Agent sessions' vocabulary: statuses, the session, tool call and delegation records the
// service returns, the list's honest status, the timeline and the extractive summary. A model
// file: the dashboard compiles it, so it imports only other models' types. Times are epoch ms
// (façades send ISO 8601).
import type { Observation, ObservationType } from '../observations/model.js';

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

/** One step of a session's timeline: which record (by id, in its list) and when. */
export interface TimelineEntry {
  kind: 'tool_call' | 'delegation' | 'observation';
  id: string;
  at: number;
}

/** One session with its activity, in order (get_session, the dashboard's timeline). */
export interface SessionDetail {
  session: Session;
  toolCalls: ToolCall[];
  delegations: Delegation[];
  /** The observations recorded with this session id (its summary among them), oldest first. */
  observations: Observation[];
  /** The session's latest summary, when it was summarized and the memory is still there. */
  summary: Observation | null;
  /** Tool calls, delegations and observations merged in time order. */
  timeline: TimelineEntry[];
  /** The sessions this one delegated to. */
  children: Session[];
  /** True when a list (tool calls, delegations, observations) was cut at the limit. */
  truncated: boolean;
}

/** A tool the session used: how often, and how often it failed. */
export interface ToolUse {
  name: string;
  calls: number;
  failures: number;
}

/** One distinct error (same tool, same first line), with how often and where it first came. */
export interface SummaryError {
  tool: string;
  error: string;
  count: number;
  firstSeq: number;
}

export interface SummaryDelegation {
  childSessionId: string;
  agentType: string | null;
  task: string | null;
  status: DelegationStatus;
  /** The child session's own status (null when it is gone). */
  childStatus: SessionStatus | null;
}

/** What summarize_session extracts from a session: no language model, the same input → the same summary. */
export interface SessionSummary {
  sessionId: string;
  title: string;
  goal: string | null;
  outcome: string | null;
  status: SessionStatus;
  agent: string | null;
  repository: string | null;
  startedAt: number;
  endedAt: number | null;
  /** To the end, or for an open session to its last activity. */
  durationMs: number;
  toolCalls: number;
  failedCalls: number;
  /** Fewer than toolCalls when the session logged more calls than a summary reads. */
  callsRead: number;
  tools: ToolUse[];
  errors: SummaryError[];
  errorsOmitted: number;
  files: string[];
  filesOmitted: number;
  delegations: SummaryDelegation[];
  delegationsOmitted: number;
  openItems: string[];
  observations: { id: string; type: ObservationType; title: string }[];
  observationsOmitted: number;
}

/** What summarize_session did: a new summary memory, or the stored one for an unchanged session. */
export interface SummaryResult {
  sessionId: string;
  /** False when the session is unchanged since its last summary: that one is returned. */
  written: boolean;
  /** The `session` memory holding the summary. */
  memoryId: string;
  /** The summary memory this one superseded, else null. */
  replaced: string | null;
  /** sha256 of what was summarized. */
  hash: string;
  summary: SessionSummary;
  /** The summary as stored (the memory's content). */
  text: string;
}
