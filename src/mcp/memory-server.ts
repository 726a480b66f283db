// The memory MCP server: memory_save, memory_search, memory_browse (the spec's three) plus
// memory_get, over the memory service. A bound session's scope is authoritative.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { Core } from '../core/index.js';
import {
  type GotItem,
  memoryBrowseInput,
  memoryGetInput,
  memorySaveInput,
  memorySearchInput,
  type Scope,
} from '../memory/index.js';
import { createMcpServer, toResult } from './server.js';
import { defineTool, type ToolDef } from './tool.js';

/** Connection-bound scope (signed attach URL or stdio flags); overrides the model's args. */
export interface MemoryBinding {
  scopeTenantId?: string | undefined;
  scopeTeamId?: string | undefined;
  scopeAgentId?: string | undefined;
}

export const MEMORY_SERVER_NAME = 'cairn-memory';

const isSet = (v: string | undefined): boolean => v !== undefined && v !== '';

const isBound = (b: MemoryBinding): boolean =>
  [b.scopeTenantId, b.scopeTeamId, b.scopeAgentId].some(isSet);

function memoryTools(core: Core, binding: MemoryBinding): ToolDef[] {
  const { memory } = core;
  const bound = isBound(binding);
  /** Reads: the full bound scope, or the model's args when unbound. */
  const readScope = (args: {
    scopeTeamId?: string | undefined;
    scopeAgentId?: string | undefined;
  }): Scope =>
    bound
      ? {
          tenantId: binding.scopeTenantId,
          teamId: binding.scopeTeamId,
          agentId: binding.scopeAgentId,
        }
      : { teamId: args.scopeTeamId, agentId: args.scopeAgentId };
  /**
   * Saves: bound sessions tag the bound team only (agent dropped: team-shared). A binding with
   * an agent but no team keeps the agent, so a bound session never writes into global memory.
   */
  const saveScope = (args: {
    scopeTeamId?: string | undefined;
    scopeAgentId?: string | undefined;
  }): Scope =>
    bound
      ? {
          tenantId: binding.scopeTenantId,
          teamId: binding.scopeTeamId,
          agentId: isSet(binding.scopeTeamId) ? undefined : binding.scopeAgentId,
        }
      : { teamId: args.scopeTeamId, agentId: args.scopeAgentId };

  return [
    defineTool({
      name: 'memory_save',
      description:
        "Save a durable fact (`title` + `content`) or a versioned procedure (set `procedureName`). Facts are declarative (\"user prefers X\"), not instructions. A fact requires a `title`; a procedure requires `procedureName`. Secrets are scrubbed; content that is nothing but secrets is declined (a tool-error). Identical content in the same scope returns the existing fact (`deduplicated: true`). Returns `{ saved: 'fact', fact }` or `{ saved: 'procedure', procedure }`.",
      input: memorySaveInput,
      handler: (a) =>
        memory.save({
          content: a.content,
          title: a.title,
          tags: a.tags,
          procedureName: a.procedureName,
          scope: saveScope(a),
        }),
    }),
    defineTool({
      name: 'memory_search',
      description:
        'Search saved facts. `mode` is `fts` (default), `vector`, or `hybrid`. Results cite a fact id, with a snippet, a score and its `scoreBasis`. `limit` is `1`–`100`. Without an embedder, vector/hybrid answer with full-text and say `degraded: true`.',
      input: memorySearchInput,
      handler: (a) =>
        memory.search({ query: a.query, mode: a.mode, limit: a.limit, scope: readScope(a) }),
    }),
    defineTool({
      name: 'memory_browse',
      description:
        'List recent saved facts (scoped), newest first. `limit` is `1`–`200` (default 20).',
      input: memoryBrowseInput,
      handler: async (a) => ({
        items: await memory.browse({ limit: a.limit, scope: readScope(a) }),
      }),
    }),
    defineTool({
      name: 'memory_get',
      description:
        'Get one saved item by id. For a procedure, also returns every version (newest first), so older versions stay readable; an older version also carries `supersededBy: { id, version }`, the current one. Tool-error `not found: <id>` outside your scope.',
      input: memoryGetInput,
      handler: (a): Promise<GotItem> => memory.get(a.id, readScope(a)),
    }),
  ];
}

/** The note for an older procedure version: it is superseded, and which version is current. */
export function supersededText(got: GotItem): string | undefined {
  const by = got.supersededBy;
  if (by === undefined) return undefined;
  const name = JSON.stringify(got.item.procedureName ?? got.item.title);
  return `superseded: this is version ${got.item.version ?? 0} of procedure ${name}; the current version is ${by.version} (id ${by.id}). memory_get {"id":"${by.id}"} reads it.`;
}

/** JSON as usual; an older procedure version gets one more text block saying it is superseded. */
function formatResult(out: unknown): CallToolResult {
  const result = toResult(out);
  const note =
    typeof out === 'object' && out !== null && 'supersededBy' in out
      ? supersededText(out as GotItem)
      : undefined;
  return note === undefined
    ? result
    : { ...result, content: [...result.content, { type: 'text', text: note }] };
}

/** Builds one memory server instance for one connection. */
export function createMemoryServer(core: Core, binding: MemoryBinding = {}): Server {
  return createMcpServer({
    name: MEMORY_SERVER_NAME,
    version: core.version,
    tools: memoryTools(core, binding),
    logger: core.logger,
    format: formatResult,
    // The spec: the model's scope args are ignored when the connection is bound.
    ...(isBound(binding) ? { ignoredArgs: ['scopeTeamId', 'scopeAgentId'] } : {}),
  });
}
