// The document-memory MCP server (`cairn-vault`, spec: shared/spec/memory-vault.md): retrieval,
// document access, mutations, lifecycle, maintenance and vault management over the vault
// domain, and the graph tools built so far (graph-tools.ts).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

import type { Core } from '../../core/index.js';
import { contextResult } from '../context/format.js';
import { createMcpServer } from '../server.js';
import { adminTools } from './admin-tools.js';
import { agentTools } from './agent-tools.js';
import { causalTools } from './causal-tools.js';
import { documentTools } from './document-tools.js';
import { graphTools } from './graph-tools.js';
import { lifecycleTools } from './lifecycle-tools.js';
import { profileTool } from './profile-tool.js';
import { retrievalTools } from './retrieval-tools.js';
import type { VaultTool } from './vault-tool.js';

export const VAULT_SERVER_NAME = 'cairn-vault';

/** Every tool, in the spec's order (retrieval, document access, mutations, lifecycle, …). */
export function vaultTools(core: Core): VaultTool[] {
  return [
    ...retrievalTools(core),
    ...documentTools(core),
    ...lifecycleTools(core),
    ...adminTools(core),
    ...agentTools(core),
    ...graphTools(core),
    profileTool(core),
    ...causalTools(core),
  ];
}

/** Builds one vault server instance for one connection. */
export function createVaultServer(core: Core): Server {
  return createMcpServer({
    name: VAULT_SERVER_NAME,
    version: core.version,
    tools: vaultTools(core),
    logger: core.logger,
    format: contextResult,
  });
}
