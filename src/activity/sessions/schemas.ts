// One zod schema per session- and agent-family tool (spec sections 5 and 6: action, session_id,
// data, project_id, worktree_id, agent_type, status, limit; agent: session_id and data
// required), and the shapes of `data` per action. Unknown `data` keys are refused by name, so a
// typo is not silently dropped. Shape only: existence and transitions are the service's.
import { z } from 'zod';

import { firstInvisible, InvalidInputError } from '../../shared/index.js';
import { DELEGATION_STATUSES, SESSION_STATUSES } from './model.js';

export const LIST_LIMIT = 20;

/** `data must be an object` for a non-object, zod's own text (naming the key) otherwise. */
const dataError = (issue: { code?: string }): string | undefined =>
  issue.code === 'invalid_type' ? 'data must be an object' : undefined;
export const MAX_LIST_LIMIT = 200;
export const ACTIVITY_LIMIT = 200;
export const MAX_ACTIVITY_LIMIT = 1000;
/** Longest free text (title, task, result, error) kept, characters. */
export const MAX_TEXT = 4000;

/** An identifier: non-empty, at most 256 characters, no control or invisible characters. */
export const idText = (field: string) =>
  z
    .string({ error: () => `${field} must be a string` })
    .trim()
    .min(1, `${field} must be a non-empty string`)
    .max(256, `${field} is longer than 256 characters`)
    // eslint-disable-next-line no-control-regex
    .refine((v) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(v), {
      message: `${field} must not contain control characters`,
    })
    .refine((v) => firstInvisible(v) === null, {
      message: `${field} must not contain invisible characters`,
    });

const freeText = (field: string, max = MAX_TEXT) =>
  z
    .string({ error: () => `${field} must be a string` })
    .max(max, `${field} is longer than ${max} characters`);

const metadata = z
  .record(z.string(), z.unknown(), { error: () => 'metadata must be an object' })
  .optional()
  .describe('Anything else to keep with it (JSON object, scrubbed of secrets)');

const status = z.enum(SESSION_STATUSES, {
  error: () => `status must be one of ${SESSION_STATUSES.join(', ')}`,
});

const token = z
  .string()
  .max(8192)
  .optional()
  .describe('JWT for authenticated requests (when the server has auth on)');

const limit = (dflt: number, max: number) =>
  z
    .number({ error: () => 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(max, `limit must be at most ${max}`)
    .optional()
    .describe(`Maximum results (default ${dflt}, at most ${max})`);

/** `data` of create: what the session is, where provenance does not say it (or to override it). */
export const createData = z.strictObject({
  session_id: idText('data.session_id').optional(),
  title: freeText('data.title', 500).optional().describe('What the session is for'),
  goal: freeText('data.goal').optional(),
  agent_type: idText('data.agent_type').optional(),
  status: status.optional(),
  parent_session_id: idText('data.parent_session_id').optional(),
  agent_program: idText('data.agent_program').optional(),
  model_id: idText('data.model_id').optional(),
  repo_id: idText('data.repo_id').optional(),
  repo_path: freeText('data.repo_path', 4096).optional(),
  project_id: idText('data.project_id').optional(),
  worktree_id: idText('data.worktree_id').optional(),
  operator_id: idText('data.operator_id').optional(),
  machine_id: idText('data.machine_id').optional(),
  metadata,
});

/** `data` of update: a new status (ended ones set ended_at), and what to record. */
export const updateData = z.strictObject({
  status: status.optional(),
  title: freeText('data.title', 500).optional(),
  goal: freeText('data.goal').optional(),
  outcome: freeText('data.outcome').optional().describe('What came of it'),
  open_items: z
    .array(freeText('data.open_items[]', 500))
    .max(100, 'data.open_items: at most 100 entries')
    .optional()
    .describe('What is left to do (replaces the list)'),
  agent_type: idText('data.agent_type').optional(),
  metadata,
});

export type CreateData = z.infer<typeof createData>;
export type UpdateData = z.infer<typeof updateData>;

export const startSessionInput = z.object({
  action: z
    .enum(['create', 'update'], { error: () => 'action must be "create" or "update"' })
    .optional()
    .describe('create (default) starts a session; update changes one (session_id required)'),
  session_id: idText('session_id')
    .optional()
    .describe('create: the new id (default: the caller’s provenance session_id); update: which'),
  data: z.record(z.string(), z.unknown(), { error: () => 'data must be an object' }).optional(),
  project_id: idText('project_id').optional().describe('create: the project (default: provenance)'),
  worktree_id: idText('worktree_id')
    .optional()
    .describe('create: the worktree (default: provenance)'),
  agent_type: idText('agent_type').optional().describe('create: the kind of agent'),
  token,
});

export const getSessionInput = z.object({
  action: z.literal('get', { error: () => 'action must be "get"' }).optional(),
  session_id: idText('session_id').describe('The session'),
  limit: limit(ACTIVITY_LIMIT, MAX_ACTIVITY_LIMIT).describe(
    `Tool calls and delegations shown (default ${ACTIVITY_LIMIT}, at most ${MAX_ACTIVITY_LIMIT})`,
  ),
  token,
});

export const listSessionsInput = z.object({
  action: z.literal('list', { error: () => 'action must be "list"' }).optional(),
  project_id: idText('project_id').optional().describe('Filter by project ID'),
  worktree_id: idText('worktree_id').optional().describe('Filter by worktree ID'),
  agent_type: idText('agent_type').optional().describe('Filter by agent type'),
  status: status.optional().describe('Filter by status'),
  limit: limit(LIST_LIMIT, MAX_LIST_LIMIT),
  token,
});

export const summarizeSessionInput = z.object({
  action: z.literal('summarize', { error: () => 'action must be "summarize"' }).optional(),
  session_id: idText('session_id').describe('The session to summarize'),
  token,
});

/** `data` of log_tool: one tool call. */
export const toolCallData = z.strictObject(
  {
    tool_name: idText('data.tool_name').describe('The tool that was called'),
    args: z
      .record(z.string(), z.unknown(), { error: () => 'data.args must be an object' })
      .optional(),
    status: z
      .enum(['ok', 'error'], { error: () => 'data.status must be "ok" or "error"' })
      .optional(),
    success: z.boolean({ error: () => 'data.success must be a boolean' }).optional(),
    result: z.unknown().optional(),
    error: freeText('data.error').optional(),
    duration_ms: z
      .number({ error: () => 'data.duration_ms must be a number' })
      .int('data.duration_ms must be an integer')
      .min(0, 'data.duration_ms must not be negative')
      .max(7 * 24 * 3600 * 1000, 'data.duration_ms is more than a week')
      .optional(),
    files: z
      .array(freeText('data.files[]', 4096).min(1, 'data.files[] must be non-empty'))
      .max(200, 'data.files: at most 200 entries')
      .optional(),
  },
  { error: dataError },
);

/** `data` of log_delegation: the child session (created when new) and the task. */
export const delegationData = z.strictObject(
  {
    child_session_id: idText('data.child_session_id').optional(),
    agent_type: idText('data.agent_type').optional(),
    model_id: idText('data.model_id').optional(),
    task: freeText('data.task').optional().describe('What was delegated'),
    status: z
      .enum(DELEGATION_STATUSES, {
        error: () => `data.status must be one of ${DELEGATION_STATUSES.join(', ')}`,
      })
      .optional(),
    result: freeText('data.result').optional(),
  },
  { error: dataError },
);

export type ToolCallData = z.infer<typeof toolCallData>;
export type DelegationData = z.infer<typeof delegationData>;

const agentInput = <D extends z.ZodType>(action: string, data: D) =>
  z.object({
    action: z.literal(action, { error: () => `action must be "${action}"` }).optional(),
    session_id: idText('session_id').describe('Session ID for the agent'),
    data: data.describe('Activity data payload'),
    token,
  });

export const logToolCallInput = agentInput('log_tool', toolCallData);
export const logDelegationInput = agentInput('log_delegation', delegationData);

/**
 * `data` parsed with `schema` (create or update data).
 * @throws InvalidInputError naming the first bad field (`data.<key>`).
 */
export function parseData<S extends z.ZodType>(
  schema: S,
  data: Readonly<Record<string, unknown>> | undefined,
): z.output<S> {
  const parsed = schema.safeParse(data ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const keys =
    issue?.code === 'unrecognized_keys' ? issue.keys.map((k) => `data.${k}`).join(', ') : '';
  const field = keys !== '' ? keys : ['data', ...(issue?.path ?? []).map(String)].join('.');
  const message =
    issue?.code === 'unrecognized_keys'
      ? 'is not a field of this action'
      : (issue?.message ?? 'invalid');
  throw new InvalidInputError(message, field);
}
