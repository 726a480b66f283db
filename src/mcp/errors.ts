// The one error mapper: expected refusals → tool errors, bad arguments → -32602,
// anything else → -32603 with no internals. Logged once here.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { z } from 'zod';

import { DomainError, InvalidInputError } from '../shared/errors.js';

/**
 * A JSON-RPC error whose message reaches the client as written. (The SDK's McpError prefixes
 * its message with `MCP error <code>:`, which the client then prefixes again.)
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Formats a zod failure as `invalid args: field: problem; …`, naming each field. */
export function invalidArgs(error: z.ZodError): RpcError {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.length === 0 ? '(arguments)' : issue.path.map(String).join('.');
    return `${path}: ${issue.message}`;
  });
  return new RpcError(ErrorCode.InvalidParams, `invalid args: ${parts.join('; ')}`);
}

/** A refusal the calling model reads as a tool result. */
export function toolError(message: string, denied?: string): CallToolResult {
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text: message }] };
  if (denied !== undefined) result._meta = { denied: { reason: denied } };
  return result;
}

/**
 * Maps anything a handler threw. Returns a tool result for domain refusals and throws an
 * RpcError (which the SDK turns into a JSON-RPC error) for everything else.
 */
export function mapError(err: unknown, tool: string, logger: Logger): CallToolResult {
  if (err instanceof InvalidInputError) {
    const field = err.field === undefined ? '' : `${err.field}: `;
    throw new RpcError(ErrorCode.InvalidParams, `invalid args: ${field}${err.message}`);
  }
  if (err instanceof DomainError) return toolError(err.message, err.denied);
  if (err instanceof McpError || err instanceof RpcError) throw err;
  logger.error({ err, tool }, 'tool call failed');
  throw new RpcError(ErrorCode.InternalError, 'internal error');
}
