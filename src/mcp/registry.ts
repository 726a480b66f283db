// Every MCP server Cairn serves, by its short name (the HTTP path segment and `cairn mcp <name>`).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

import type { Core } from '../core/index.js';
import { checkGraphName } from '../graph/index.js';
import { createBackplaneServer } from './backplane-server.js';
import { type CallerAuth, createContextServer } from './context/index.js';
import { createGraphServer } from './graph-server.js';
import { createMemoryServer } from './memory-server.js';
import { createTasksServer, type TasksBinding } from './tasks-server.js';
import { createTeamChatServer } from './teamchat-server.js';
import { createToolsServer } from './tools-server.js';
import { createVaultServer } from './vault/index.js';

/** Connection-bound parameters, as strings from an attach URL or stdio flags. */
export interface Binding {
  readOnly?: boolean | undefined;
  scopeTenantId?: string | undefined;
  scopeTeamId?: string | undefined;
  scopeAgentId?: string | undefined;
  /** teamchat: the room (`team:<roomTeamId>`) a session posts to and reads. */
  roomTeamId?: string | undefined;
  /** teamchat: the author of the session's posts (and the echo guard's "self"). */
  postAuthorAgentId?: string | undefined;
  /** teamchat: an orchestrator-driven run; lists `team_delegate`. */
  delegate?: boolean | undefined;
  /** backplane (stdio only): act as the agent this token belongs to instead of the operator. */
  agentToken?: string | undefined;
  /** graph: the named graph the connection reads and writes (`?graph=`, `--graph`). */
  graphName?: string | undefined;
}

/**
 * What the HTTP mount knows of a connection's caller, beyond the binding: the context server
 * verifies per-call tokens with the secret (auth on) and takes the bearer's agent.
 */
export type ConnectionAuth = CallerAuth;

export interface McpServerEntry {
  /** serverInfo.name */
  title: string;
  /** Attach-URL query params this server honours (signed). */
  bindingParams: readonly (keyof Binding)[];
  create(core: Core, binding: Binding, auth?: ConnectionAuth): Server;
  /**
   * Connection choices read from the attach URL unsigned, as they grant nothing the bearer
   * could not do anyway (the graph server's `?graph=`). @throws InvalidInputError on a bad value
   */
  fromQuery?(query: URLSearchParams): Binding;
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
  teamchat: {
    title: 'cairn-teamchat',
    bindingParams: ['roomTeamId', 'postAuthorAgentId', 'delegate'],
    create: (core: Core, binding: Binding): Server => createTeamChatServer(core, binding),
  },
  tools: {
    title: 'cairn-tools',
    // Optional: names the calling agent (audit, grants, blocklist); the URL is bare without it.
    bindingParams: ['scopeAgentId'],
    create: (core: Core, binding: Binding): Server => createToolsServer(core, binding),
  },
  backplane: {
    title: 'cairn-backplane',
    // No attach-URL binding: over HTTP the bearer token is the principal (see http/backplane-mount).
    bindingParams: [],
    create: (core: Core, binding: Binding): Server =>
      createBackplaneServer(core, { agentToken: binding.agentToken }),
  },
  context: {
    title: 'cairn-context',
    // No attach-URL binding: paths are bounded by the allowed roots, provenance comes per call;
    // over HTTP the mount passes the caller auth (token secret, the bearer's agent).
    bindingParams: [],
    create: (core: Core, _binding: Binding, auth: ConnectionAuth = {}): Server =>
      createContextServer(core, auth),
  },
  vault: {
    title: 'cairn-vault',
    // No binding: a call names its vault (`vault`), the default vault otherwise.
    bindingParams: [],
    create: (core: Core): Server => createVaultServer(core),
  },
  graph: {
    title: 'cairn-graph',
    // No signed binding: the graph is a choice (`?graph=NAME`, `--graph`), "default" unless named.
    bindingParams: [],
    create: (core: Core, binding: Binding): Server =>
      createGraphServer(core, { graph: binding.graphName }),
    fromQuery: (query: URLSearchParams): Binding => {
      const graph = query.get('graph');
      return graph === null ? {} : { graphName: checkGraphName(graph, 'graph') };
    },
  },
} as const satisfies Record<string, McpServerEntry>;

export type McpServerName = keyof typeof MCP_SERVERS;
export const MCP_SERVER_NAMES = Object.keys(MCP_SERVERS) as McpServerName[];

export function isMcpServerName(name: string): name is McpServerName {
  return Object.hasOwn(MCP_SERVERS, name);
}
