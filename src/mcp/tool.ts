// The shape of one MCP tool: a zod input schema (parsed at the edge) and a handler that
// receives trusted, typed arguments. Handlers return plain data; plumbing formats it.
import type { z } from 'zod';

export interface ToolResult {
  /** Serialised as the text content and, when an object, as structuredContent. */
  data: unknown;
}

/** Per-call context from the transport. */
export interface ToolCallContext {
  /** Aborted when the client cancels the request or the session closes. */
  signal: AbortSignal;
}

export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  handler: (args: z.output<S>, ctx: ToolCallContext) => Promise<unknown>;
}

/** Declares a tool with its handler typed from the schema. */
export function defineTool<S extends z.ZodType>(def: ToolDef<S>): ToolDef {
  return def as unknown as ToolDef;
}
