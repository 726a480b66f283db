// The tools MCP server: a façade over the tool broker. tools/list shows only available tools;
// every call runs the broker pipeline. A refusal is a tool result with `_meta.denied`
// { reason, detail }; while a call waits for approval, progress notifications keep it alive,
// and its approval names the board task it works for (`_meta["cairn/taskId"]` or the claim).
// When the caller goes away the call's signal aborts with why, and the approval is cancelled.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  ListToolsRequestSchema,
  type ProgressToken,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

import type { Board } from '../board/index.js';
import {
  agentPrincipal,
  type CallResult,
  type ListedTool,
  ToolDeniedError,
  type WaitingInfo,
} from '../broker/index.js';
import type { Core } from '../core/index.js';
import { mapError } from './errors.js';
import { toInputSchema } from './json-schema.js';
import { type CallExtra, onToolCall, type ToolCallRequest } from './tool-call.js';

/**
 * The calling agent, when the transport authenticated it: a signed attach URL's (or scoped
 * token's) `scopeAgentId` over HTTP, `--agent` over stdio (whoever spawns the bin already
 * holds the database). Only a bound agent is a principal that allow_always grants belong to.
 */
export interface ToolsBinding {
  scopeAgentId?: string | undefined;
}

export const TOOLS_SERVER_NAME = 'cairn-tools';
/** The request `_meta` key naming the board task a call works for. */
export const TASK_META_KEY = 'cairn/taskId';

type Notify = (progress: { progress: number; total: number; message: string }) => void;

const annotationsOf = (t: ListedTool): Tool['annotations'] => ({
  readOnlyHint: t.risk === 'safe' && t.name === 'echo',
  destructiveHint: t.risk === 'destructive',
  openWorldHint: t.risk === 'external',
});

const listed = (t: ListedTool): Tool => ({
  name: t.name,
  description: t.description,
  inputSchema: toInputSchema(t.input),
  annotations: annotationsOf(t),
});

/** A refusal as the model reads it: the message, plus the typed reason in `_meta.denied`. */
export function deniedResult(err: ToolDeniedError): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: err.message }],
    _meta: { denied: { reason: err.reason, detail: err.detail } },
  };
}

function okResult(r: CallResult): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: r.text }] };
  const plain = typeof r.data === 'object' && r.data !== null && !Array.isArray(r.data);
  // A compacted result carries only the cut text: the full object would defeat the budget.
  if (r.compacted === null && plain) result.structuredContent = r.data as Record<string, unknown>;
  return result;
}

/** Waiting reports → progress notifications (progress = ms waited, total = the expiry). */
function waitingReporter(notify: Notify | undefined): ((w: WaitingInfo) => void) | undefined {
  if (notify === undefined) return undefined;
  let last = -1;
  return (w) => {
    const progress = Math.max(w.elapsedMs, last + 1);
    last = progress;
    const total = progress + Math.max(0, w.expiresAt - Date.now());
    const message = `waiting for a human to decide approval ${w.approvalId} (cairn approvals approve|deny ${w.approvalId})`;
    notify({ progress, total, message });
  };
}

/**
 * Which board task a gated call belongs to: `_meta["cairn/taskId"]` when it names a live task;
 * else the task the bound agent holds in_progress (newest claim or update); else none. An
 * unbound caller (`client:<name>`, shared by every session of that client) has no claim.
 */
function taskResolver(
  board: Board,
  named: unknown,
  agentId: string | undefined,
): () => Promise<string | null> {
  return async () => {
    const explicit = typeof named === 'string' && named !== '' && named.length <= 200;
    if (explicit && (await board.taskExists(named))) return named;
    if (agentId === undefined) return null;
    return (await board.claimedTaskOf(agentId))?.id ?? null;
  };
}

/** Reasons a transport owner gives its own cancellations (src/http/mcp-sessions.ts). */
const OWN_REASON = /^(?:transport closed|session ended)\b/;

/** Why the caller is gone, for the approval's cancel reason and the audit. */
function whyGone(server: Server, reason: unknown): string {
  if (typeof reason === 'string' && reason !== '') {
    return OWN_REASON.test(reason) ? reason : `request cancelled: ${reason}`;
  }
  return server.transport === undefined ? 'transport closed' : 'request cancelled';
}

/**
 * The call's signal, aborted with why the caller is gone: the client's `notifications/cancelled`
 * (with its reason, e.g. its request timeout), a transport that closed (the SDK aborts every
 * handler, then drops the transport, so this looks a microtask later), or the reason an HTTP
 * mount gave when a response stream or session ended.
 */
function callSignal(server: Server, signal: AbortSignal): AbortSignal {
  const out = new AbortController();
  const onAbort = (): void => queueMicrotask(() => out.abort(whyGone(server, signal.reason)));
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return out.signal;
}

/** The client's progress token, when `_meta.progressToken` is one (a string or a number). */
const progressToken = (v: unknown): ProgressToken | undefined =>
  typeof v === 'string' || typeof v === 'number' ? v : undefined;

async function handleCall(
  core: Core,
  who: {
    server: Server;
    caller: string;
    principal: string | undefined;
    agentId: string | undefined;
  },
  request: ToolCallRequest,
  extra: CallExtra,
): Promise<CallToolResult> {
  const name = request.name;
  const meta = request._meta;
  const token = progressToken(meta?.['progressToken']);
  const notify: Notify | undefined =
    token === undefined
      ? undefined
      : (p) =>
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, ...p },
            })
            .catch((err: unknown) => core.logger.debug({ err }, 'progress notification failed'));
  try {
    const result = await core.broker.call({
      tool: name,
      args: request.arguments ?? {},
      caller: who.caller,
      principal: who.principal,
      signal: callSignal(who.server, extra.signal),
      onWaiting: waitingReporter(notify),
      resolveTask: taskResolver(core.board, meta?.[TASK_META_KEY], who.agentId),
    });
    return okResult(result);
  } catch (err) {
    if (err instanceof ToolDeniedError) return deniedResult(err);
    return mapError(err, name, core.logger);
  }
}

/**
 * Builds one tools server instance for one connection. The caller the broker audits and blocks
 * is the bound agent, else `client:<clientInfo.name>` from initialize; grants belong only to a
 * bound agent's principal (`agent:<id>`), never to the self-reported client name.
 */
export function createToolsServer(core: Core, binding: ToolsBinding = {}): Server {
  const server = new Server(
    { name: TOOLS_SERVER_NAME, version: core.version },
    { capabilities: { tools: {}, logging: {} } },
  );
  const bound = binding.scopeAgentId === '' ? undefined : binding.scopeAgentId;
  const principal = bound === undefined ? undefined : agentPrincipal(bound);
  const caller = (): string => {
    if (bound !== undefined) return bound;
    const client = server.getClientVersion()?.name;
    return client === undefined || client === '' ? 'anonymous' : `client:${client.slice(0, 100)}`;
  };
  server.setRequestHandler(ListToolsRequestSchema, () =>
    Promise.resolve({ tools: core.broker.listTools().map(listed) }),
  );
  onToolCall(server, (request, extra) =>
    handleCall(core, { server, caller: caller(), principal, agentId: bound }, request, extra),
  );
  return server;
}
