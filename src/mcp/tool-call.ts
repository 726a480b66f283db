// Registers a server's tools/call handler so that a malformed request envelope is a -32602
// naming the field. The SDK's own registration parses every tools/call against its schema
// before any handler runs, and a non-string `name` or a non-object `arguments` escapes as a
// ZodError that its dispatcher answers with -32603 and zod's issue list
// (modelcontextprotocol/typescript-sdk#2284). Registered on the base protocol with a schema
// that admits any params, the envelope is checked here instead.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolResult,
  ErrorCode,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { RpcError } from './errors.js';

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A tools/call request whose envelope passed: a tool name, object arguments, object _meta. */
export interface ToolCallRequest {
  name: string;
  /** The arguments as sent (an object), or undefined when none were. */
  arguments: Record<string, unknown> | undefined;
  _meta: Record<string, unknown> | undefined;
}

const ANY_CALL = z.object({ method: z.literal('tools/call'), params: z.unknown() });

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const invalid = (field: string, problem: string): RpcError =>
  new RpcError(ErrorCode.InvalidParams, `invalid args: ${field}: ${problem}`);

/**
 * Checks the envelope of a tools/call's params.
 * @throws RpcError -32602 naming `params`, `name`, `arguments` or `_meta`.
 */
export function checkCallEnvelope(params: unknown): ToolCallRequest {
  if (!isRecord(params)) throw invalid('params', 'expected an object');
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== 'string') throw invalid('name', 'expected a string (the tool name)');
  if (args !== undefined && !isRecord(args)) throw invalid('arguments', 'expected an object');
  if (meta !== undefined && !isRecord(meta)) throw invalid('_meta', 'expected an object');
  return { name, arguments: args, _meta: meta };
}

/** Installs `handler` as `server`'s tools/call (see the file comment for why not the SDK's). */
export function onToolCall(
  server: Server,
  handler: (call: ToolCallRequest, extra: CallExtra) => Promise<CallToolResult>,
): void {
  const install = Protocol.prototype.setRequestHandler as (
    this: Server,
    schema: typeof ANY_CALL,
    fn: (request: z.infer<typeof ANY_CALL>, extra: CallExtra) => Promise<CallToolResult>,
  ) => void;
  install.call(server, ANY_CALL, async (request, extra) =>
    handler(checkCallEnvelope(request.params), extra),
  );
}
