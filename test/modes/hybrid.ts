// A local context server in a hybrid mode, linked to an SDK client in memory, forwarding to a
// remote context endpoint (an in-process service or a spawned `cairn serve`); and the helpers
// the mode suites share: the JSON-RPC error of a call, the tool error of a call.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

import type { Core } from '../../src/core/index.js';
import {
  type ContextMode,
  createContextServer,
  createRemote,
  type Remote,
} from '../../src/mcp/index.js';
import { linkedClient, silentLogger, textOf } from '../helpers.js';

export interface Hybrid {
  client: Client;
  remote: Remote;
  close(): Promise<void>;
}

/** `core`'s context server in `mode`, forwarding to `url` with `token`, and a client on it. */
export async function hybrid(
  core: Core,
  mode: ContextMode,
  url: string,
  token: string | undefined,
  bounds: { connectTimeoutMs?: number; callTimeoutMs?: number } = {},
): Promise<Hybrid> {
  const remote = createRemote({
    url: new URL(url),
    token,
    version: core.version,
    logger: silentLogger,
    connectTimeoutMs: bounds.connectTimeoutMs ?? 2000,
    callTimeoutMs: bounds.callTimeoutMs ?? 5000,
    backoffMs: 50,
  });
  const client = await linkedClient(createContextServer(core, { mode, remote }), 'claude-code');
  return {
    client,
    remote,
    close: async () => {
      await client.close();
      await remote.close();
    },
  };
}

/** Calls a tool expecting a JSON-RPC error; its code and message (without the SDK's prefix). */
export async function rpcError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<{ code: number; message: string }> {
  try {
    const r = await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) });
    throw new Error(`${name} answered instead of failing: ${JSON.stringify(r)}`);
  } catch (err) {
    if (!(err instanceof McpError)) throw err;
    return { code: err.code, message: err.message.replace(/^MCP error -?\d+: /, '') };
  }
}

/** Calls a tool expecting a tool error; its text and `_meta.denied.reason`. */
export async function toolRefusal(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; reason: unknown }> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError !== true) throw new Error(`${name} succeeded: ${JSON.stringify(r)}`);
  return { text: textOf(r), reason: (r._meta?.['denied'] as { reason?: unknown })?.reason };
}
