// The session family (spec "Session Tool Family"): start_session (create, and update),
// get_session (with its timeline), list_sessions, summarize_session. Thin handlers over
// core.sessions (src/activity/sessions). The spec asks no provenance of this family; what is
// known of the call's is recorded with the session (and a summary) where data does not say.
import {
  ACTIVITY_LIMIT,
  createData,
  getSessionInput,
  LIST_LIMIT,
  listSessionsInput,
  parseData,
  startSessionInput,
  summarizeSessionInput,
  updateData,
} from '../../activity/sessions/index.js';
import type { Core } from '../../core/index.js';
import { InvalidInputError } from '../../shared/index.js';
import { type ContextFamily, contextTool } from './family.js';
import { PROVENANCE_META_KEY, resolvedProvenance } from './provenance.js';
import { detailText, listText, startedText, summarizedText, updatedText } from './session-text.js';

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

const defined = <T extends Record<string, unknown>>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

function sessionTools(core: Core) {
  return [
    contextTool({
      name: 'start_session',
      description:
        "Start an agent session (action `create`, the default) or change one (action `update`, `session_id` required). create records who runs it — agent_program, model_id, repo_id/repo_path, project_id, worktree_id, operator_id, machine_id — from the call's execution provenance where `data` does not say (data: session_id, title, goal, agent_type, status, parent_session_id, metadata, or any provenance field); the id defaults to the provenance session_id. update sets `data.status` (active, paused, completed, failed, abandoned: the last three end it with ended_at, for good), title, goal, outcome, open_items, metadata. Log its work with log_tool_call and log_delegation; summarize it with summarize_session.",
      input: startSessionInput,
      annotations: {
        title: 'Start or update a session',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      handler: async (a, ctx) => {
        const provenance = await resolvedProvenance(ctx);
        const meta = { [PROVENANCE_META_KEY]: provenance };
        if (a.action === 'update') {
          if (a.session_id === undefined) {
            throw new InvalidInputError('is required for action "update"', 'session_id');
          }
          const { session, changed } = await core.sessions.update(
            a.session_id,
            parseData(updateData, a.data),
          );
          return { text: updatedText(session, changed), data: { session, changed }, meta };
        }
        const session = await core.sessions.create({
          id: a.session_id,
          data: parseData(createData, a.data),
          defaults: defined({
            project_id: a.project_id,
            worktree_id: a.worktree_id,
            agent_type: a.agent_type,
          }),
          provenance,
        });
        return { text: startedText(session), data: { session }, meta };
      },
    }),
    contextTool({
      name: 'get_session',
      description: `One session with its activity in order: status, agent, model, repository, project, worktree, times, counts, the tool calls logged (tool, status, error, files touched), the delegations it made and the child sessions. \`limit\` caps each list (default ${ACTIVITY_LIMIT}).`,
      input: getSessionInput,
      annotations: { title: 'Get a session', ...READ_ONLY },
      handler: async (a) => {
        const detail = await core.sessions.get(a.session_id, a.limit ?? ACTIVITY_LIMIT);
        return { text: detailText(detail), data: { ...detail } };
      },
    }),
    contextTool({
      name: 'list_sessions',
      description: `Recent sessions, newest first, with their agent, model, repository and counts of tool calls, errors and delegations. Filters: project_id, worktree_id, agent_type, status; \`limit\` (default ${LIST_LIMIT}). The answer's status says whether nothing is recorded (empty) or the filters removed everything (filtered_out).`,
      input: listSessionsInput,
      annotations: { title: 'List sessions', ...READ_ONLY },
      handler: async (a) => {
        const list = await core.sessions.list(
          defined({
            project_id: a.project_id,
            worktree_id: a.worktree_id,
            agent_type: a.agent_type,
            status: a.status,
          }),
          a.limit ?? LIST_LIMIT,
        );
        return { text: listText(list), data: { ...list } };
      },
    }),
    contextTool({
      name: 'summarize_session',
      description:
        "Summarize a session without a language model (action `summarize`, `session_id` required): title, goal and outcome, status and duration, tools used with call counts and failures, the distinct errors, files touched, delegations with the child sessions' status, open items (the session's open_items, and failed calls no later call of the same tool fixed) and the observations recorded in it. Stored as a `session` memory (tags session-summary and session:<id>), its id recorded on the session; an unchanged session returns the stored summary with written: false.",
      input: summarizeSessionInput,
      annotations: {
        title: 'Summarize a session',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: async (a, ctx) => {
        const provenance = await resolvedProvenance(ctx);
        const result = await core.sessions.summarize(a.session_id, provenance);
        return {
          text: summarizedText(result),
          data: { ...result },
          meta: { [PROVENANCE_META_KEY]: provenance },
        };
      },
    }),
  ];
}

export const sessionFamily: ContextFamily = { name: 'session', tools: sessionTools };
