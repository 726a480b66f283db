// MCP façades: one factory per server, shared tool plumbing.
export { invalidArgs, mapError, RpcError, toolError } from './errors.js';
export { toInputSchema } from './json-schema.js';
export { createMcpServer, type McpServerSpec, toResult } from './server.js';
export { createTasksServer, TASKS_SERVER_NAME, type TasksBinding } from './tasks-server.js';
export { defineTool, type ToolDef } from './tool.js';
export {
  type Binding,
  type ConnectionAuth,
  isMcpServerName,
  MCP_SERVER_NAMES,
  MCP_SERVERS,
  type McpServerEntry,
  type McpServerName,
} from './registry.js';
export { createMemoryServer, type MemoryBinding, MEMORY_SERVER_NAME } from './memory-server.js';
export {
  createTeamChatServer,
  type TeamChatBinding,
  TEAMCHAT_SERVER_NAME,
} from './teamchat-server.js';
export {
  createToolsServer,
  deniedResult,
  type ToolsBinding,
  TOOLS_SERVER_NAME,
} from './tools-server.js';
export {
  BACKPLANE_SERVER_NAME,
  type BackplaneBinding,
  createBackplaneServer,
  UNAUTHORIZED_CODE,
} from './backplane-server.js';
export {
  CONTEXT_AUTH_ERROR,
  CONTEXT_FAMILIES,
  CONTEXT_MODES,
  CONTEXT_SERVER_NAME,
  type ContextFamily,
  type ContextMode,
  type ContextServerOptions,
  contextTool,
  createContextServer,
  createRemote,
  isContextMode,
  MODE_UNSERVED,
  ModeConfigError,
  type ModeSettings,
  modeSettings,
  PROVENANCE_META_KEY,
  provenancedTool,
  type Remote,
  REMOTE_UNAVAILABLE,
  TOKEN_META_KEY,
} from './context/index.js';
export { createVaultServer, VAULT_SERVER_NAME, vaultTools } from './vault/index.js';
export { createGraphServer, GRAPH_SERVER_NAME, type GraphServerOptions } from './graph-server.js';
