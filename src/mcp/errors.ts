// The one error mapper: expected refusals and invalid arguments → tool errors the model reads
// (MCP 2025-11-25, SEP-1303), anything else → -32603 with no internals. Logged once here.
// JSON-RPC -32602 is left for malformed envelopes and unknown tools (src/mcp/tool-call.ts, server.ts),
// and for missing or invalid execution provenance, where the context spec asks for it.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { z } from 'zod';

import { ProvenanceError } from '../activity/index.js';
import { DomainError, describeIssues, InvalidInputError } from '../shared/index.js';

/** `_meta.denied.reason` of an argument the tool refused (schema or domain check). */
export const INVALID_ARGS = 'invalid_args';

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

/** A refusal the calling model reads as a tool result. */
export function toolError(message: string, denied?: string): CallToolResult {
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text: message }] };
  if (denied !== undefined) result._meta = { denied: { reason: denied } };
  return result;
}

/**
 * A zod failure as the tool error `invalid args: field: problem; …` (each problem once) with
 * `_meta.denied.reason: "invalid_args"`, so the model can correct the call.
 */
export function invalidArgs(error: z.ZodError): CallToolResult {
  return toolError(`invalid args: ${describeIssues(error)}`, INVALID_ARGS);
}

/**
 * Maps anything a handler threw. Returns a tool result for domain refusals and invalid input,
 * and throws an RpcError (which the SDK turns into a JSON-RPC error) for everything else:
 * -32602 with the spec's text for provenance refusals (the spec's error has no `data`),
 * -32603 `internal error` for the unexpected.
 */
export function mapError(err: unknown, tool: string, logger: Logger): CallToolResult {
  if (err instanceof ProvenanceError) throw new RpcError(ErrorCode.InvalidParams, err.message);
  if (err instanceof InvalidInputError) {
    const field = err.field === undefined ? '' : `${err.field}: `;
    return toolError(`invalid args: ${field}${err.message}`, INVALID_ARGS);
  }
  if (err instanceof DomainError) return toolError(err.message, err.denied);
  if (err instanceof McpError || err instanceof RpcError) throw err;
  logger.error({ err, tool }, 'tool call failed');
  throw new RpcError(ErrorCode.InternalError, 'internal error');
}
