// The shape of the context server: tool families (the spec's nine: search, index, validate,
// memory, session, agent, vcs, project, entity), each a table of tools built from the core;
// what a context tool returns; and the two ways to declare one (with or without execution
// provenance). Declarations only: no tool lives here.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import type { Discovery, Provenance, ProvenanceFamily } from '../../activity/index.js';
import type { Core } from '../../core/index.js';
import { defineTool, type ToolCallContext, type ToolDef } from '../tool.js';
import { withProvenance } from './provenance.js';

/** The spec's handler families ("Family" column of its tools table). */
export type ContextFamilyName =
  'search' | 'index' | 'validate' | 'memory' | 'session' | 'agent' | 'vcs' | 'project' | 'entity';

/** A context tool's per-call context: the transport's, plus the process's discovery. */
export interface ContextCallContext extends ToolCallContext {
  /** Execution provenance discovered once per process (Core.provenance). */
  discovered: () => Promise<Discovery>;
  /** The agent a verified token names (auth on; see caller.ts), recorded in provenance. */
  authenticatedAgent: string | undefined;
  /** The call's arguments as the client sent them (a forwarded call passes these on). */
  sent: Readonly<Record<string, unknown>>;
}

/** The context of a tool whose family needs provenance: this call's, checked. */
export interface ProvenancedCallContext extends ContextCallContext {
  provenance: Provenance;
}

/** What a context tool returns; `contextResult` turns it into the tool result. */
export interface ContextOutput {
  /** What the model reads: a readable summary (JSON of `data` when omitted). */
  text?: string;
  /** The complete answer, sent as structuredContent. */
  data: Record<string, unknown>;
  /** Merged into the result's `_meta` (the provenance used, under `cairn/provenance`). */
  meta?: Record<string, unknown>;
  /** A remote's answer to a forwarded call: the tool result as is (text, data, meta unused). */
  forwarded?: CallToolResult;
}

/** A context tool as the server registers it. */
export interface ContextTool extends ToolDef<z.ZodType, ContextCallContext, ContextOutput> {
  /** The provenance family this tool checks before it runs (set by `provenancedTool`). */
  readonly provenance?: ProvenanceFamily;
}

/** One family: its name and its tools, built once per server instance from the core. */
export interface ContextFamily {
  readonly name: ContextFamilyName;
  tools(core: Core): readonly ContextTool[];
}

/** Declares a tool that needs no provenance (the validate family). */
export function contextTool<S extends z.ZodType>(
  def: ToolDef<S, ContextCallContext, ContextOutput>,
): ContextTool {
  return defineTool(def);
}

/**
 * Declares a tool of a family the spec says needs provenance (index, search, memory). Before
 * the handler runs, the call's provenance is resolved (discovery, the request `_meta`, the
 * client name) and checked for `family` (JSON-RPC -32602 with the spec's message when a field
 * is missing or invalid); the handler gets it as `ctx.provenance`, and the result carries it
 * in `_meta["cairn/provenance"]`.
 */
export function provenancedTool<S extends z.ZodType>(
  family: ProvenanceFamily,
  def: ToolDef<S, ProvenancedCallContext, ContextOutput>,
): ContextTool {
  const tool = defineTool<S, ContextCallContext, ContextOutput>({
    ...def,
    handler: (args, ctx) =>
      withProvenance(family, ctx, (provenance) => def.handler(args, { ...ctx, provenance })),
  });
  return { ...tool, provenance: family };
}
