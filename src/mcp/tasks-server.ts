// The tasks MCP server: the spec's 12 board tools plus claim_next_ready and renew_claim, as a
// thin façade over the board. Read-only sessions list only list_tasks and get_task.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

import {
  addCommentInput,
  claimNextReadyInput,
  claimTaskInput,
  createSubtaskInput,
  createTaskInput,
  linkTaskInput,
  listTasksInput,
  renewClaimInput,
  taskIdInput,
  updateTaskStatusInput,
} from '../board/index.js';
import type { Core } from '../core/index.js';
import { createMcpServer } from './server.js';
import { defineTool, type ToolDef } from './tool.js';

/** Connection-bound scope: set by the transport (signed attach URL or stdio flags), never by the model. */
export interface TasksBinding {
  readOnly?: boolean | undefined;
  /** Board reads are restricted to this team; the model's teamId is overridden. */
  scopeTeamId?: string | undefined;
  /**
   * The calling agent: it claims, renews and comments as itself whatever the arguments say, and
   * releases or status changes of tasks held by others are refused.
   */
  scopeAgentId?: string | undefined;
}

export const TASKS_SERVER_NAME = 'cairn-tasks';
const READ_ONLY_TOOLS = new Set(['list_tasks', 'get_task']);

function tasksTools(core: Core, binding: TasksBinding): ToolDef[] {
  const { board } = core;
  const actor = { agentId: binding.scopeAgentId };
  const team = (requested: string | undefined): string | undefined =>
    binding.scopeTeamId ?? requested;
  /** A bound agent acts as itself: its identity is never taken from tool arguments. */
  const self = (requested: string): string => binding.scopeAgentId ?? requested;

  return [
    defineTool({
      name: 'list_tasks',
      description: 'List board tasks. Pass `ready=true` for only claimable (deps satisfied) work.',
      input: listTasksInput,
      handler: async (a) => ({
        tasks: await board.listTasks({ teamId: team(a.teamId), status: a.status, ready: a.ready }),
      }),
    }),
    defineTool({
      name: 'get_task',
      description:
        'Get a task with its comments and ancestor chain. Returns `{ task, comments, ancestors }`; a tool-error `not found: <id>` when the task does not exist.',
      input: taskIdInput,
      handler: (a) => board.getTask(a.taskId, { teamId: binding.scopeTeamId }),
    }),
    defineTool({
      name: 'create_task',
      description:
        "Create a board task. Setting `parentTaskId` makes this a subtask: the per-parent child-count (24) and nesting-depth (2) caps apply, and it inherits the parent's team unless `teamId` is given. Without one it is a root task, bounded instead by a rolling-window creation rate (30 per 5 min).",
      input: createTaskInput,
      // A bound session's new root tasks land on its own team, so it can see them.
      handler: (a) =>
        board.createCappedTask(
          {
            ...a,
            teamId: a.teamId ?? (a.parentTaskId === undefined ? binding.scopeTeamId : undefined),
          },
          actor,
        ),
    }),
    defineTool({
      name: 'create_subtask',
      description:
        "Create a subtask under a parent (inherits the parent's team). Same creation caps and tool-errors as a parented `create_task`.",
      input: createSubtaskInput,
      handler: (a) => board.createCappedTask(a, actor),
    }),
    defineTool({
      name: 'claim_task',
      description:
        'Atomically claim a `todo` task. A `conflict` error means another agent won; do not retry. Returns the claimed task on success.',
      input: claimTaskInput,
      handler: (a) => board.claimTask({ ...a, assigneeAgentId: self(a.assigneeAgentId) }),
    }),
    defineTool({
      name: 'assign_task',
      description:
        'Assign a `todo` task to an agent (the same atomic claim as `claim_task`; a conflict means already assigned).',
      input: claimTaskInput,
      handler: (a) => board.claimTask({ ...a, via: 'assign', assignedBy: binding.scopeAgentId }),
    }),
    defineTool({
      name: 'release_task',
      description: 'Release an `in_progress` task back to `todo`.',
      input: taskIdInput,
      handler: (a) => board.releaseTask(a.taskId, actor),
    }),
    defineTool({
      name: 'update_task_status',
      description:
        'Transition a task status. State-machine enforced; an illegal transition returns a tool-error `status change failed: <reason>`.',
      input: updateTaskStatusInput,
      handler: (a) => board.updateStatus(a.taskId, a.status, actor),
    }),
    defineTool({
      name: 'block_task',
      description:
        'Mark a task blocked. Tool-error `block failed: <reason>` on an illegal transition.',
      input: taskIdInput,
      handler: (a) => board.blockTask(a.taskId, actor),
    }),
    defineTool({
      name: 'unblock_task',
      description:
        'Unblock a task (back to `todo`). Tool-error `unblock failed: <reason>` on an illegal transition.',
      input: taskIdInput,
      handler: (a) => board.unblockTask(a.taskId, actor),
    }),
    defineTool({
      name: 'add_comment',
      description:
        "Add a comment to a task (report-up summaries, system notes). `authorType` defaults to `'agent'`.",
      input: addCommentInput,
      handler: (a) =>
        board.addComment({ ...a, authorAgentId: binding.scopeAgentId ?? a.authorAgentId }),
    }),
    defineTool({
      name: 'link_task',
      description:
        'Make `taskId` depend on `dependsOnTaskId`; it stays unready until the dependency is done. A link that would close a cycle is refused with the tool-error `linking <taskId> to <dependsOnTaskId> would create a dependency cycle`. Re-linking an existing edge is a no-op.',
      input: linkTaskInput,
      handler: async (a) => ({
        linked: true,
        ...(await board.linkTask(a.taskId, a.dependsOnTaskId)),
      }),
    }),
    defineTool({
      name: 'claim_next_ready',
      description:
        'Atomically pick and claim the highest-priority ready task (every dependency done), optionally within a team. Returns `{ task }`, or `{ task: null, reason }` when nothing is ready.',
      input: claimNextReadyInput,
      handler: async (a) => {
        const task = await board.claimNextReady({
          ...a,
          assigneeAgentId: self(a.assigneeAgentId),
          teamId: team(a.teamId),
        });
        return task === null ? { task: null, reason: 'no ready task' } : { task };
      },
    }),
    defineTool({
      name: 'renew_claim',
      description: `Extend your claim's lease (claims expire after ${Math.round(board.leaseMs / 60_000)} min without renewal and return to \`todo\`). Tool-error \`renew failed: <reason>\` if you do not hold the task.`,
      input: renewClaimInput,
      handler: (a) => board.renewClaim({ ...a, assigneeAgentId: self(a.assigneeAgentId) }),
    }),
  ];
}

/**
 * Builds one tasks server instance for one connection. `binding` comes from the transport
 * (a signed attach URL, or stdio flags); it is authoritative over tool arguments.
 */
export function createTasksServer(core: Core, binding: TasksBinding = {}): Server {
  const all = tasksTools(core, binding);
  const tools = binding.readOnly === true ? all.filter((t) => READ_ONLY_TOOLS.has(t.name)) : all;
  return createMcpServer({
    name: TASKS_SERVER_NAME,
    version: core.version,
    tools,
    logger: core.logger,
  });
}
