// Backplane test helpers: cores on fresh databases, SDK clients acting as a principal over
// linked in-memory transports, and raw JSON-RPC over HTTP. Nothing here asserts.
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';

import type { Principal } from '../../src/backplane/index.js';
import { createBackplaneServer } from '../../src/mcp/index.js';
import { connectStdio, REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { type LinkedSessions, linkedSessions, ROOT } from '../helpers.js';

export const BACKPLANE_BIN = join(ROOT, 'bin/cairn-mcp-backplane.js');
export const OPERATOR: Principal = { kind: 'operator' };
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Opens cores and clients acting as a principal; `closeAll` (in afterEach) removes them. */
export const backplaneSessions = (): LinkedSessions<Principal> =>
  linkedSessions((core, principal) => createBackplaneServer(core, { principal }), {
    binding: OPERATOR,
    core: { embedder: null },
  });

export type Answer =
  | { kind: 'ok'; text: string; structured: Record<string, unknown> | undefined }
  | { kind: 'tool-error'; text: string }
  | { kind: 'rpc-error'; code: number | undefined; message: string };

/** Calls a tool and classifies the answer without throwing. */
export async function ask(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Answer> {
  try {
    const r = (await client.callTool({ name, arguments: args }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    })) as CallToolResult;
    const first = r.content[0];
    const text = first?.type === 'text' ? first.text : '';
    if (r.isError === true) return { kind: 'tool-error', text };
    return { kind: 'ok', text, structured: r.structuredContent };
  } catch (err) {
    if (err instanceof McpError) return { kind: 'rpc-error', code: err.code, message: err.message };
    return { kind: 'rpc-error', code: undefined, message: String(err) };
  }
}

/** The text of a successful call; throws otherwise. */
export async function okText(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const a = await ask(client, name, args);
  if (a.kind !== 'ok') throw new Error(`${name} failed: ${JSON.stringify(a)}`);
  return a.text;
}

/** Parses register_agent's text into its fields. */
export function credentialsOf(text: string): { nick: string; password: string; token: string } {
  const field = (k: string): string => {
    const m = new RegExp(`^${k}: (.+)$`, 'm').exec(text);
    if (m?.[1] === undefined) throw new Error(`no ${k} in ${text}`);
    return m[1];
  };
  return { nick: field('nick'), password: field('password'), token: field('token') };
}

/** Starts one backplane stdio server on `db` and connects an SDK client. */
export async function spawnBackplane(options: {
  db: string;
  home: string;
  args?: readonly string[];
  env?: Record<string, string>;
}): Promise<{ client: Client; close(): Promise<void>; stderr(): string }> {
  const { client, stderr } = await connectStdio({
    bin: BACKPLANE_BIN,
    what: 'backplane',
    clientName: 'cairn-backplane-test',
    db: options.db,
    args: options.args,
    env: {
      CAIRN_HOME: options.home,
      CAIRN_LOG_LEVEL: 'warn',
      CAIRN_EMBEDDINGS: 'none',
      ...options.env,
    },
  });
  return { client, stderr, close: () => client.close().catch(() => undefined) };
}

/** One raw JSON-RPC POST; returns the status and the parsed JSON body. */
export async function rawRpc(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: JSON.parse(text) as Record<string, unknown>,
    headers: res.headers,
  };
}
