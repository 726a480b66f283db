// Builds a low-level SDK `Server` from a list of tool definitions: tools/list from the zod
// schemas, tools/call parsed at the edge and routed through the one error mapper. Servers
// may add to the per-call context and format results their own way; nothing else differs.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { z } from 'zod';

import { dropNullOptionals, isoTimes } from '../shared/index.js';
import { callContext } from './call-context.js';
import { invalidArgs, mapError, RpcError } from './errors.js';
import { toInputSchema } from './json-schema.js';
import { onToolCall } from './tool-call.js';
import type { ToolCallContext, ToolDef } from './tool.js';

/** The call a context factory extends: the tool's name and its arguments as sent. */
export interface CallRequest {
  name: string;
  /** The arguments as the client sent them (before parsing; `{}` when none). */
  args: Readonly<Record<string, unknown>>;
}

/**
 * Extends the transport's context for one call (e.g. with the authenticated principal). Runs
 * after the arguments parse and before the handler; what it throws reaches the client as is
 * (an `RpcError` keeps its code), not through the error mapper.
 */
export type CallContextFactory<C extends ToolCallContext> = (
  base: ToolCallContext,
  call: CallRequest,
) => Promise<C>;

interface McpServerOptions<C extends ToolCallContext, R> {
  name: string;
  version: string;
  instructions?: string;
  tools: readonly ToolDef<z.ZodType, C, R>[];
  logger: Logger;
  /** Turns a handler's output into the tool result; `toResult` (JSON) when omitted. */
  format?: (out: R) => CallToolResult;
  /**
   * Adds to every tool result, a tool-error included (the tasks server's inbox piggyback; an
   * `invalid args` refusal too). Not applied to JSON-RPC errors (unknown tool, malformed
   * envelope). Must not throw.
   */
  amend?: (result: CallToolResult) => Promise<CallToolResult>;
  /**
   * Arguments the connection's binding overrides ("ignored when bound" in the spec): removed
   * before validation, so a value the server would ignore can never fail the call.
   */
  ignoredArgs?: readonly string[];
  /**
   * The tools/list answer as given, for a drop-in that must list another server's entries field
   * by field (titles, output schemas); built from `tools` when omitted.
   */
  listing?: readonly Tool[];
}

/** A server's tools and plumbing; `context` is required when its tools need more than the base. */
export type McpServerSpec<
  C extends ToolCallContext = ToolCallContext,
  R = unknown,
> = McpServerOptions<C, R> &
  (ToolCallContext extends C
    ? { context?: CallContextFactory<C> }
    : { context: CallContextFactory<C> });

/**
 * Formats handler output as text plus structured content. The text is compact JSON: models
 * read it as well as indented JSON, which made a 50-task listing 28% larger (and slower).
 * Times leave as ISO 8601 (`isoTimes`), whatever a domain keeps.
 */
export function toResult(output: unknown): CallToolResult {
  const data = isoTimes(output);
  const text = JSON.stringify(data) ?? 'null';
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    result.structuredContent = data as Record<string, unknown>;
  }
  return result;
}

/** Creates one MCP server instance (one per session/connection). */
export function createMcpServer<C extends ToolCallContext = ToolCallContext, R = unknown>(
  spec: McpServerSpec<C, R>,
): Server {
  const server = new Server(
    { name: spec.name, version: spec.version },
    {
      // `logging` makes the SDK answer logging/setLevel (per session) instead of -32601.
      capabilities: { tools: {}, logging: {} },
      ...(spec.instructions === undefined ? {} : { instructions: spec.instructions }),
    },
  );
  const listed: Tool[] =
    spec.listing?.slice() ??
    spec.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: toInputSchema(t.input),
      ...(t.annotations === undefined ? {} : { annotations: t.annotations }),
    }));
  const call = toolCaller(spec);
  server.setRequestHandler(ListToolsRequestSchema, () => Promise.resolve({ tools: listed }));
  onToolCall(server, (request, extra) =>
    call(request.name, request.arguments, callContext(server, request, extra, spec.logger)),
  );
  return server;
}

/** `args` without the `ignored` keys (a copy; anything but a plain object is left as is). */
function withoutIgnored(args: unknown, ignored: readonly string[] | undefined): unknown {
  if (ignored === undefined || ignored.length === 0) return args;
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  return Object.fromEntries(Object.entries(args).filter(([k]) => !ignored.includes(k)));
}

/**
 * tools/call: an unknown tool is -32602; the arguments, without ignored keys and without nulls
 * for optional fields, parse or are the tool error `invalid args: …`; then context, handler,
 * format.
 */
function toolCaller<C extends ToolCallContext, R>(
  spec: McpServerSpec<C, R>,
): (
  name: string,
  args: Record<string, unknown> | undefined,
  base: ToolCallContext,
) => Promise<CallToolResult> {
  const byName = new Map(spec.tools.map((t) => [t.name, t]));
  const format: (out: R) => CallToolResult = spec.format ?? toResult;
  // Without a factory the spec's type guarantees the tools need only the base context.
  const context: CallContextFactory<C> = spec.context ?? ((base) => Promise.resolve(base as C));
  return async (name, args, base) => {
    const tool = byName.get(name);
    if (tool === undefined) throw new RpcError(ErrorCode.InvalidParams, `unknown tool: ${name}`);
    const sent = withoutIgnored(args ?? {}, spec.ignoredArgs);
    const parsed = tool.input.safeParse(dropNullOptionals(tool.input, sent));
    let result: CallToolResult;
    if (!parsed.success) {
      result = invalidArgs(parsed.error);
    } else {
      const ctx = await context(base, { name, args: args ?? {} });
      try {
        result = format(await tool.handler(parsed.data, ctx));
      } catch (err) {
        result = mapError(err, tool.name, spec.logger);
      }
    }
    return spec.amend === undefined ? result : spec.amend(result);
  };
}
