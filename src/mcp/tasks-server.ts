// The tasks MCP server: the spec's 12 board tools plus claim_next_ready and renew_claim, as a
// thin façade over the board. Read-only sessions list only list_tasks and get_task.
import { randomUUID } from 'node:crypto';

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import {
  type Actor,
  addCommentInput,
  claimNextReadyInput,
  claimTaskInput,
  createRefusalCircuit,
  createSubtaskInput,
  createTaskInput,
  linkTaskInput,
  listTasksInput,
  type InboxDelivery,
  renewClaimInput,
  takeInbox,
  taskIdInput,
  updateTaskStatusInput,
} from '../board/index.js';
import type { Core } from '../core/index.js';
import { createMcpServer } from './server.js';
import { sessionOrigin } from './session-origin.js';
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

/** Who a call acts as: the bound agent (if any) and the session's client and transport. */
type ActorOf = () => Actor;

function tasksTools(core: Core, binding: TasksBinding, actorOf: ActorOf): ToolDef[] {
  const { board } = core;
  const team = (requested: string | undefined): string | undefined =>
    binding.scopeTeamId ?? requested;
  /** A bound agent acts as itself: its identity is never taken from tool arguments. */
  const self = (requested: string): string => binding.scopeAgentId ?? requested;
  // Who keeps hitting a creation cap: the bound agent (shared by all its sessions and
  // processes), or this one connection when unbound, so unbound agents are never conflated.
  const caller =
    binding.scopeAgentId === undefined
      ? `session:${randomUUID()}`
      : `agent:${binding.scopeAgentId}`;
  const { circuitThreshold, circuitWindowMs, circuitCooldownMs } = core.broker.config;
  const circuit = createRefusalCircuit(core.store, {
    policy: {
      threshold: circuitThreshold,
      windowMs: circuitWindowMs,
      cooldownMs: circuitCooldownMs,
    },
    clock: core.clock,
  });

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
        circuit.guard(caller, (tx) =>
          board.createCappedTaskIn(
            tx,
            {
              ...a,
              teamId: a.teamId ?? (a.parentTaskId === undefined ? binding.scopeTeamId : undefined),
            },
            actorOf(),
          ),
        ),
    }),
    defineTool({
      name: 'create_subtask',
      description:
        "Create a subtask under a parent (inherits the parent's team). Same creation caps and tool-errors as a parented `create_task`.",
      input: createSubtaskInput,
      handler: (a) => circuit.guard(caller, (tx) => board.createCappedTaskIn(tx, a, actorOf())),
    }),
    defineTool({
      name: 'claim_task',
      description:
        'Atomically claim a `todo` task. A `conflict` error means another agent won; do not retry. Returns the claimed task on success.',
      input: claimTaskInput,
      handler: (a) =>
        board.claimTask({
          ...a,
          assigneeAgentId: self(a.assigneeAgentId),
          origin: actorOf(),
        }),
    }),
    defineTool({
      name: 'assign_task',
      description:
        'Assign a `todo` task to an agent (the same atomic claim as `claim_task`; a conflict means already assigned).',
      input: claimTaskInput,
      handler: (a) =>
        board.claimTask({
          ...a,
          via: 'assign',
          assignedBy: binding.scopeAgentId,
          origin: actorOf(),
        }),
    }),
    defineTool({
      name: 'release_task',
      description: 'Release an `in_progress` task back to `todo`.',
      input: taskIdInput,
      handler: (a) => board.releaseTask(a.taskId, actorOf()),
    }),
    defineTool({
      name: 'update_task_status',
      description:
        'Transition a task status. State-machine enforced; an illegal transition returns a tool-error `status change failed: <reason>`.',
      input: updateTaskStatusInput,
      handler: (a) => board.updateStatus(a.taskId, a.status, actorOf()),
    }),
    defineTool({
      name: 'block_task',
      description:
        'Mark a task blocked. Tool-error `block failed: <reason>` on an illegal transition.',
      input: taskIdInput,
      handler: (a) => board.blockTask(a.taskId, actorOf()),
    }),
    defineTool({
      name: 'unblock_task',
      description:
        'Unblock a task (back to `todo`). Tool-error `unblock failed: <reason>` on an illegal transition.',
      input: taskIdInput,
      handler: (a) => board.unblockTask(a.taskId, actorOf()),
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
          origin: actorOf(),
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
  const actorOf = (): Actor => ({ agentId: binding.scopeAgentId, ...sessionOrigin(server) });
  const all = tasksTools(core, binding, actorOf);
  const tools = binding.readOnly === true ? all.filter((t) => READ_ONLY_TOOLS.has(t.name)) : all;
  const agent = binding.scopeAgentId;
  const server = createMcpServer({
    name: TASKS_SERVER_NAME,
    version: core.version,
    tools,
    logger: core.logger,
    ...(agent === undefined ? {} : { amend: piggybackInbox(core, agent) }),
  });
  return server;
}

/**
 * The inbox piggyback of a bound agent: what was addressed to it since its last call (see
 * src/board/inbox.ts) rides along on every tool result, a tool-error included, as one more text
 * block and as `_meta["cairn/inbox"]`. Each entry is handed over once; a failure to read the
 * inbox never spoils the result it would have joined.
 */
function piggybackInbox(
  core: Core,
  agent: string,
): (result: CallToolResult) => Promise<CallToolResult> {
  return async (result) => {
    let inbox: InboxDelivery;
    try {
      inbox = await takeInbox(core.store, agent);
    } catch (err) {
      core.logger.warn({ err, agent }, 'inbox piggyback skipped');
      return result;
    }
    if (inbox.items.length === 0) return result;
    return {
      ...result,
      content: [...result.content, { type: 'text', text: inboxText(agent, inbox) }],
      _meta: { ...result._meta, [INBOX_META]: inbox },
    };
  };
}

/** `_meta` key of the piggybacked inbox: `{ items: InboxItem[], more: number }`. */
export const INBOX_META = 'cairn/inbox';

function inboxText(agent: string, inbox: InboxDelivery): string {
  const more =
    inbox.more === 0 ? '' : ` (${inbox.more} more waiting: they come with your next calls)`;
  const lines = inbox.items.map((i) => {
    // Rooms are `team:<id>` or `#channel`; any other source is a task.
    const room = i.source.startsWith('#') || i.source.startsWith('team:');
    const where = room
      ? `${i.kind === 'mention' ? '@mention' : 'message'} in ${i.source}`
      : `${i.kind === 'mention' ? '@mention in a comment' : 'comment'} on task ${i.source}`;
    return `- ${where} from ${i.from ?? 'the system'} at ${i.at}: ${JSON.stringify(i.text)}`;
  });
  return [`Inbox for ${agent}: ${inbox.items.length} new${more}`, ...lines].join('\n');
}
