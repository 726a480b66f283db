// Store rows → the session records the service returns (JSON columns parsed, flags as booleans).
import { jsonObject, NotFoundError } from '../../shared/index.js';
import {
  type DelegationRow,
  type Queryable,
  sessionById,
  type SessionRowCounts,
  type ToolCallRow,
} from '../../store/index.js';
import type { Delegation, DelegationStatus, Session, SessionStatus, ToolCall } from './model.js';

function jsonStrings(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function toSession(r: SessionRowCounts): Session {
  return {
    id: r.id,
    parentSessionId: r.parent_session_id,
    status: r.status as SessionStatus,
    agentType: r.agent_type,
    agentProgram: r.agent_program,
    modelId: r.model_id,
    repoId: r.repo_id,
    repoPath: r.repo_path,
    projectId: r.project_id,
    worktreeId: r.worktree_id,
    operatorId: r.operator_id,
    machineId: r.machine_id,
    delegated: r.delegated === 1,
    title: r.title,
    data: jsonObject(r.data),
    provenance: jsonObject(r.provenance),
    startedAt: r.started_at,
    updatedAt: r.updated_at,
    endedAt: r.ended_at,
    counts: { toolCalls: r.tool_calls, errors: r.errors, delegations: r.delegations },
    summaryId: r.summary_id,
  };
}

export function toToolCall(r: ToolCallRow): ToolCall {
  return {
    id: r.id,
    sessionId: r.session_id,
    seq: r.seq,
    toolName: r.tool_name,
    status: r.status,
    args: jsonObject(r.args),
    result: r.result,
    error: r.error,
    durationMs: r.duration_ms,
    files: jsonStrings(r.files),
    createdAt: r.created_at,
  };
}

export function toDelegation(r: DelegationRow): Delegation {
  return {
    id: r.id,
    parentSessionId: r.parent_session_id,
    childSessionId: r.child_session_id,
    seq: r.seq,
    agentType: r.agent_type,
    task: r.task,
    status: r.status as DelegationStatus,
    result: r.result,
    createdAt: r.created_at,
  };
}

/** The session, or NotFoundError naming it. */
export async function requireSession(db: Queryable, id: string): Promise<Session> {
  const row = await sessionById(db, id);
  if (row === undefined) {
    throw new NotFoundError(`session not found: ${id} (start it with start_session)`);
  }
  return toSession(row);
}
