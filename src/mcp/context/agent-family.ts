// The agent family (spec "Agent Tool Family"): log_tool_call and log_delegation, each with the
// spec's required `session_id` and `data`. Thin handlers over core.sessions; the call's
// provenance (resolved, not required) is recorded with each entry.
import { logDelegationInput, logToolCallInput } from '../../activity/sessions/index.js';
import type { Core } from '../../core/index.js';
import { type ContextFamily, contextTool } from './family.js';
import { PROVENANCE_META_KEY, resolvedProvenance } from './provenance.js';
import { delegationText, toolCallText } from './session-text.js';

const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

function agentTools(core: Core) {
  return [
    contextTool({
      name: 'log_tool_call',
      description:
        'Log one tool call of a session (action log_tool). data: tool_name (required), args (object; path-like arguments such as path, file_path, files count as files touched), status ok|error (or success: boolean; an `error` alone means it failed), result, error, duration_ms, files. Secrets are scrubbed. The session must exist (start_session).',
      input: logToolCallInput,
      annotations: { title: 'Log a tool call', ...WRITE },
      handler: async (a, ctx) => {
        const provenance = await resolvedProvenance(ctx);
        const { toolCall, session } = await core.sessions.logToolCall(
          a.session_id,
          a.data,
          provenance,
        );
        return {
          text: toolCallText(toolCall, session),
          data: { toolCall, session },
          meta: { [PROVENANCE_META_KEY]: provenance },
        };
      },
    }),
    contextTool({
      name: 'log_delegation',
      description:
        "Log that a session delegated work (action log_delegation). data: child_session_id (an existing session is linked, a new id or none creates the child), agent_type, model_id, task, status started|completed|failed|cancelled, result. The child gets parent_session_id and delegated=true, and the parent's repository, project and worktree. Logging the same child again updates that delegation; a finished one ends a child still open. Cycles and a second parent are refused.",
      input: logDelegationInput,
      annotations: { title: 'Log a delegation', ...WRITE },
      handler: async (a, ctx) => {
        const provenance = await resolvedProvenance(ctx);
        const logged = await core.sessions.logDelegation(a.session_id, a.data, provenance);
        return {
          text: delegationText(logged),
          data: { ...logged },
          meta: { [PROVENANCE_META_KEY]: provenance },
        };
      },
    }),
  ];
}

export const agentFamily: ContextFamily = { name: 'agent', tools: agentTools };
