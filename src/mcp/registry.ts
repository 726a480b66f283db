// Every MCP server Cairn serves, by its short name (the HTTP path segment and `cairn mcp <name>`).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

import type { Core } from '../core/index.js';
import { createMemoryServer } from './memory-server.js';
import { createTasksServer, type TasksBinding } from './tasks-server.js';

/** Connection-bound parameters, as strings from an attach URL or stdio flags. */
export interface Binding {
  readOnly?: boolean | undefined;
  scopeTenantId?: string | undefined;
  scopeTeamId?: string | undefined;
  scopeAgentId?: string | undefined;
}

export interface McpServerEntry {
  /** serverInfo.name */
  title: string;
  /** Attach-URL query params this server honours (signed). */
  bindingParams: readonly (keyof Binding)[];
  create(core: Core, binding: Binding): Server;
}

export const MCP_SERVERS = {
  tasks: {
    title: 'cairn-tasks',
    bindingParams: ['readOnly', 'scopeTeamId', 'scopeAgentId'],
    create: (core: Core, binding: Binding): Server =>
      createTasksServer(core, binding satisfies TasksBinding),
  },
  memory: {
    title: 'cairn-memory',
    bindingParams: ['scopeTenantId', 'scopeTeamId', 'scopeAgentId'],
    create: (core: Core, binding: Binding): Server => createMemoryServer(core, binding),
  },
} as const satisfies Record<string, McpServerEntry>;

export type McpServerName = keyof typeof MCP_SERVERS;
export const MCP_SERVER_NAMES = Object.keys(MCP_SERVERS) as McpServerName[];

export function isMcpServerName(name: string): name is McpServerName {
  return Object.hasOwn(MCP_SERVERS, name);
}
