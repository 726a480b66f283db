// The context MCP server (`cairn-context`, spec: shared/spec/context-browser.md): the tools of
// its families over the shared plumbing. Provenance discovery starts when the server is built
// and is shared by every instance of the process (Core.provenance).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

import { FAMILY_REQUIREMENTS, type ProvenanceFamily } from '../../activity/index.js';
import type { Core } from '../../core/index.js';
import { createMcpServer } from '../server.js';
import { CONTEXT_FAMILIES } from './families.js';
import type { ContextCallContext, ContextFamily, ContextOutput, ContextTool } from './family.js';
import { contextResult } from './format.js';

export const CONTEXT_SERVER_NAME = 'cairn-context';

export interface ContextServerOptions {
  /** The families to serve (default CONTEXT_FAMILIES). */
  families?: readonly ContextFamily[];
}

const needsProvenance = (name: string): name is ProvenanceFamily =>
  Object.hasOwn(FAMILY_REQUIREMENTS, name);

/**
 * Every tool of `families`, checked: names unique, and each tool of a family the spec says
 * needs provenance (index, search, memory) declared with `provenancedTool` for that family.
 * @throws Error on a broken table (a programming error, caught by the tests).
 */
export function contextTools(core: Core, families: readonly ContextFamily[]): ContextTool[] {
  const tools: ContextTool[] = [];
  for (const family of families) {
    for (const tool of family.tools(core)) {
      if (tools.some((t) => t.name === tool.name)) {
        throw new Error(`context tool ${tool.name} is listed twice`);
      }
      if (needsProvenance(family.name) && tool.provenance !== family.name) {
        throw new Error(`context tool ${tool.name} (${family.name}) must check provenance`);
      }
      tools.push(tool);
    }
  }
  return tools;
}

/** Builds one context server instance for one connection. */
export function createContextServer(core: Core, options: ContextServerOptions = {}): Server {
  void core.provenance();
  return createMcpServer<ContextCallContext, ContextOutput>({
    name: CONTEXT_SERVER_NAME,
    version: core.version,
    tools: contextTools(core, options.families ?? CONTEXT_FAMILIES),
    logger: core.logger,
    context: (base) => Promise.resolve({ ...base, discovered: core.provenance }),
    format: contextResult,
  });
}
