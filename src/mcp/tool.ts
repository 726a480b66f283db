// The shape of one MCP tool: a zod input schema (parsed at the edge) and a handler that
// receives trusted, typed arguments. Handlers return plain data; plumbing formats it.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

export interface ToolResult {
  /** Serialised as the text content and, when an object, as structuredContent. */
  data: unknown;
}

/**
 * Per-call context from the transport, built in one place (createMcpServer). A server whose
 * tools need more (the backplane's principal) extends this interface and supplies
 * `McpServerSpec.context`, so a field added here reaches every server's handlers.
 */
export interface ToolCallContext {
  /** Aborted when the client cancels the request or the session closes. */
  signal: AbortSignal;
  /** The request's `_meta` as sent (provenance overrides, `progressToken`, …), if any. */
  meta: Readonly<Record<string, unknown>> | undefined;
  /** The session's `clientInfo.name` (control characters removed, at most 100), if any. */
  client: string | undefined;
  /**
   * Reports progress when the client sent `_meta.progressToken` (`notifications/progress`);
   * undefined otherwise. `progress` must grow from one report to the next. Never throws.
   */
  progress: ProgressReporter | undefined;
}

/** One progress report: how far, out of how much (when known), and what is happening. */
export type ProgressReporter = (report: {
  progress: number;
  total?: number;
  message?: string;
}) => void;

/**
 * One tool: `C` is the context its handler receives, `R` what the handler returns (formatted
 * by the server's `format`, JSON by default).
 */
export interface ToolDef<
  S extends z.ZodType = z.ZodType,
  C extends ToolCallContext = ToolCallContext,
  R = unknown,
> {
  name: string;
  description: string;
  input: S;
  /** Hints for clients (read-only, destructive, …), listed by tools/list as given. */
  annotations?: ToolAnnotations;
  handler: (args: z.output<S>, ctx: C) => Promise<R>;
}

/** Declares a tool with its handler typed from the schema. */
export function defineTool<
  S extends z.ZodType,
  C extends ToolCallContext = ToolCallContext,
  R = unknown,
>(def: ToolDef<S, C, R>): ToolDef<z.ZodType, C, R> {
  return def as unknown as ToolDef<z.ZodType, C, R>;
}
