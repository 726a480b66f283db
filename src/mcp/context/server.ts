// The context MCP server (`cairn-context`, spec: shared/spec/context-browser.md): the tools of
// its families over the shared plumbing, each family placed by the operation mode (run here,
// forwarded to the remote, or not served), and the caller identified by its token when auth is
// on. Provenance discovery starts when the server is built and is shared by every instance of
// the process (Core.provenance).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

import { FAMILY_REQUIREMENTS, type ProvenanceFamily } from '../../activity/index.js';
import type { Core } from '../../core/index.js';
import { createMcpServer } from '../server.js';
import { type CallerAuth, callerAgent } from './caller.js';
import { CONTEXT_FAMILIES } from './families.js';
import type { ContextCallContext, ContextFamily, ContextOutput, ContextTool } from './family.js';
import { contextResult } from './format.js';
import { forwardedTool, unservedTool } from './forward.js';
import { type ContextMode, DEFAULT_CONTEXT_MODE, needsRemote, placement } from './modes.js';
import type { Remote } from './remote.js';

export const CONTEXT_SERVER_NAME = 'cairn-context';

export interface ContextServerOptions extends CallerAuth {
  /** The families to serve (default CONTEXT_FAMILIES). */
  families?: readonly ContextFamily[];
  /** Where each family runs (default stdio-only: every family here). */
  mode?: ContextMode;
  /** Where client-hybrid and server-hybrid forward (required by them). */
  remote?: Remote | undefined;
}

const needsProvenance = (name: string): name is ProvenanceFamily =>
  Object.hasOwn(FAMILY_REQUIREMENTS, name);

/** One tool of the table and the family it belongs to. */
interface FamilyTool {
  tool: ContextTool;
  family: ContextFamily['name'];
}

/**
 * Every tool of `families` with its family, checked: names unique, and each tool of a family
 * the spec says needs provenance (index, search, memory) declared with `provenancedTool` for
 * that family.
 * @throws Error on a broken table (a programming error, caught by the tests).
 */
function familyTools(core: Core, families: readonly ContextFamily[]): FamilyTool[] {
  const tools: FamilyTool[] = [];
  for (const family of families) {
    for (const tool of family.tools(core)) {
      if (tools.some((t) => t.tool.name === tool.name)) {
        throw new Error(`context tool ${tool.name} is listed twice`);
      }
      if (needsProvenance(family.name) && tool.provenance !== family.name) {
        throw new Error(`context tool ${tool.name} (${family.name}) must check provenance`);
      }
      tools.push({ tool, family: family.name });
    }
  }
  return tools;
}

/** Every tool of `families`, checked (see familyTools). */
export function contextTools(core: Core, families: readonly ContextFamily[]): ContextTool[] {
  return familyTools(core, families).map((t) => t.tool);
}

/**
 * Every tool of `families` as `mode` places it: local tools as they are, forwarded ones
 * answered by `remote`, unserved ones listed but refusing with mode_unserved.
 * @throws Error when the mode forwards and no remote is given (a programming error: the CLI
 *   refuses such a configuration at start).
 */
export function placedTools(
  core: Core,
  families: readonly ContextFamily[],
  mode: ContextMode,
  remote: Remote | undefined,
): ContextTool[] {
  if (needsRemote(mode) && remote === undefined) {
    throw new Error(`the context server in ${mode} mode needs a remote`);
  }
  return familyTools(core, families).map(({ tool, family }) => {
    const where = placement(mode, family);
    if (where === 'remote' && remote !== undefined) return forwardedTool(tool, remote);
    if (where === 'unserved') return unservedTool(tool, family, mode);
    return tool;
  });
}

/** Builds one context server instance for one connection. */
export function createContextServer(core: Core, options: ContextServerOptions = {}): Server {
  void core.provenance();
  const mode = options.mode ?? DEFAULT_CONTEXT_MODE;
  const auth: CallerAuth = { tokenSecret: options.tokenSecret, bearerAgent: options.bearerAgent };
  return createMcpServer<ContextCallContext, ContextOutput>({
    name: CONTEXT_SERVER_NAME,
    version: core.version,
    tools: placedTools(core, options.families ?? CONTEXT_FAMILIES, mode, options.remote),
    logger: core.logger,
    context: async (base, call) => ({
      ...base,
      discovered: core.provenance,
      authenticatedAgent: await callerAgent(auth, call.args, base.meta),
      sent: call.args,
    }),
    format: contextResult,
  });
}
