// Copy-pasteable attach snippets for each runtime (Claude Code, Codex, OpenClaw, Cursor), over
// HTTP (signed URL + token header) or stdio (node + the cairn CLI + CAIRN_DB_PATH, or CAIRN_DB_URL
// without its password on PostgreSQL). Shared by
// GET /api/mcp/config and `cairn config`.
import { fileURLToPath } from 'node:url';

import { z } from 'zod';

import { DEFAULT_BROKER_CONFIG } from '../broker/index.js';
import { graphNameProblem } from '../graph/index.js';
import { type Binding, MCP_SERVER_NAMES, MCP_SERVERS, type McpServerName } from '../mcp/index.js';
import { isValidId } from '../rooms/index.js';
import type { ShareableDbUrl } from '../store/index.js';
import { paramsOf, scopedToken, signedQuery } from './binding.js';

export const RUNTIMES = ['claude-code', 'codex', 'openclaw', 'cursor'] as const;
export type Runtime = (typeof RUNTIMES)[number];

const flag = z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const ident = z.string().min(1).max(200);
/** Room and author ids land in the post envelope, so they obey the rooms' id rules. */
const roomIdent = ident.refine(isValidId, 'may not contain [ ] = · or control characters');

/** The attach request, as query params (`GET /api/mcp/config`) or CLI flags. */
export const attachInput = z.object({
  runtime: z.enum(RUNTIMES),
  server: z.enum(MCP_SERVER_NAMES as [McpServerName, ...McpServerName[]]),
  transport: z.enum(['http', 'stdio']).default('http'),
  scopeTenantId: ident.optional(),
  scopeTeamId: ident.optional(),
  scopeAgentId: ident.optional(),
  readOnly: flag.optional(),
  /** teamchat: the bound room (`team:<roomTeamId>`). */
  roomTeamId: roomIdent.optional(),
  /** teamchat: the bound post author. */
  postAuthorAgentId: roomIdent.optional(),
  /** teamchat: an orchestrator-driven run (lists team_delegate). */
  delegate: flag.optional(),
  /** graph: the named graph (unsigned `?graph=`, stdio `--graph`); see graphNameOf. */
  graphName: z
    .string()
    .superRefine((v, ctx) => {
      const problem = graphNameProblem(v);
      if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
});
export type AttachInput = z.output<typeof attachInput>;

export interface AttachContext {
  /** e.g. http://127.0.0.1:4870 */
  baseUrl: string;
  /** The master API token, or null when the server runs with --no-auth. */
  apiToken: string | null;
  secret: string;
  dbPath: string;
  /** The PostgreSQL database (password left out) a stdio snippet names instead of `dbPath`. */
  dbUrl?: ShareableDbUrl | null | undefined;
  /** How long a gated tools call may wait for a human (the broker's TTL); default 5 min. */
  approvalTtlMs?: number | undefined;
}

export interface AttachSnippet {
  runtime: Runtime;
  server: McpServerName;
  transport: 'http' | 'stdio';
  /** Where the snippet goes. */
  file: string;
  format: 'json' | 'toml';
  snippet: string;
  /** The MCP endpoint (http transport only). */
  url?: string;
  /** What to set besides the snippet (the tools server: the runtime's tool-call timeout). */
  note?: string;
}

const FILES: Record<Runtime, string> = {
  'claude-code': '.mcp.json (project) or ~/.claude.json',
  codex: '~/.codex/config.toml',
  openclaw: '~/.openclaw/openclaw.json',
  cursor: '.cursor/mcp.json (project) or ~/.cursor/mcp.json',
};

const CLI_PATH = fileURLToPath(new URL('../../bin/cairn.js', import.meta.url));

interface Launch {
  url?: string;
  headers?: Record<string, string>;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
}

function bindingOf(input: AttachInput): Binding {
  return {
    readOnly: input.readOnly,
    scopeTenantId: input.scopeTenantId,
    scopeTeamId: input.scopeTeamId,
    scopeAgentId: input.scopeAgentId,
    roomTeamId: input.roomTeamId,
    postAuthorAgentId: input.postAuthorAgentId,
    delegate: input.delegate,
  };
}

/** The graph a graph-server snippet names (the option is ignored for other servers). */
const graphNameOf = (input: AttachInput): string | undefined =>
  input.server === 'graph' ? input.graphName : undefined;

function httpLaunch(input: AttachInput, ctx: AttachContext): Launch {
  const binding = bindingOf(input);
  const signed = signedQuery(ctx.secret, input.server, binding);
  const graph = graphNameOf(input);
  // Unsigned: a choice of graph, not a scope (the signature covers the binding params only).
  if (graph !== undefined) signed.set('graph', graph);
  const query = signed.toString();
  const url = `${ctx.baseUrl}/api/mcp/${input.server}${query === '' ? '' : `?${query}`}`;
  const params = paramsOf(binding);
  let token = ctx.apiToken;
  // A bound attach gets a token that authorises only this binding, not the master token.
  if (token !== null && params.size > 0) token = scopedToken(ctx.secret, input.server, params);
  return token === null ? { url } : { url, headers: { Authorization: `Bearer ${token}` } };
}

function stdioLaunch(input: AttachInput, ctx: AttachContext): Launch {
  const args = [CLI_PATH, 'mcp', input.server];
  if (input.readOnly === true) args.push('--read-only');
  if (input.scopeTenantId !== undefined) args.push('--tenant', input.scopeTenantId);
  if (input.scopeTeamId !== undefined) args.push('--team', input.scopeTeamId);
  if (input.scopeAgentId !== undefined) args.push('--agent', input.scopeAgentId);
  if (input.roomTeamId !== undefined) args.push('--room-team', input.roomTeamId);
  if (input.postAuthorAgentId !== undefined) args.push('--author', input.postAuthorAgentId);
  if (input.delegate === true) args.push('--delegate');
  const graph = graphNameOf(input);
  if (graph !== undefined) args.push('--graph', graph);
  const env =
    ctx.dbUrl === null || ctx.dbUrl === undefined
      ? { CAIRN_DB_PATH: ctx.dbPath }
      : { CAIRN_DB_URL: ctx.dbUrl.url };
  return { command: process.execPath, args, env };
}

/** Said beside a stdio snippet whose database URL lost its password on the way. */
const PASSWORD_NOTE =
  'the snippet leaves out the database password: set PGPASSWORD in its env (or put the password in CAIRN_DB_URL)';

const toml = (value: string): string => JSON.stringify(value);
const tomlTable = (obj: Record<string, string>): string =>
  `{ ${Object.entries(obj)
    .map(([k, v]) => `${toml(k)} = ${toml(v)}`)
    .join(', ')} }`;

/**
 * The tools server's calls may wait for a human for the approval TTL. What each runtime offers
 * to wait that long (only settings its own docs name); a call its client gives up on is
 * cancelled, never run later. See docs/servers/tools.md, "Waiting and client timeouts".
 */
function toolsNote(runtime: Runtime, waitSec: number): string {
  const gone = 'a call the client gives up on is cancelled, never run later';
  switch (runtime) {
    case 'claude-code':
      return `gated tools calls wait up to ${waitSec} s for a human: start Claude Code with MCP_TOOL_TIMEOUT=${waitSec * 1000} (ms; shell or settings.json "env") so it waits as long; ${gone}`;
    case 'codex':
      return `gated tools calls wait up to ${waitSec} s for a human: tool_timeout_sec (Codex's default is 60) is set to match; ${gone}`;
    default:
      return `gated tools calls wait up to ${waitSec} s for a human; ${runtime} documents no per-call timeout setting, so decide within its timeout; ${gone}`;
  }
}

function render(
  runtime: Runtime,
  key: string,
  launch: Launch,
  http: boolean,
  toolTimeoutSec: number | undefined,
): { format: 'json' | 'toml'; snippet: string } {
  if (runtime === 'codex') {
    const lines = [`[mcp_servers.${key}]`];
    if (launch.url !== undefined) lines.push(`url = ${toml(launch.url)}`);
    if (launch.headers !== undefined) lines.push(`http_headers = ${tomlTable(launch.headers)}`);
    if (launch.command !== undefined) lines.push(`command = ${toml(launch.command)}`);
    if (launch.args !== undefined) lines.push(`args = [${launch.args.map(toml).join(', ')}]`);
    if (launch.env !== undefined) lines.push(`env = ${tomlTable(launch.env)}`);
    if (toolTimeoutSec !== undefined) lines.push(`tool_timeout_sec = ${toolTimeoutSec}`);
    return { format: 'toml', snippet: `${lines.join('\n')}\n` };
  }
  let entry: Record<string, unknown> = { ...launch };
  if (runtime === 'claude-code') entry = { type: http ? 'http' : 'stdio', ...launch };
  if (runtime === 'openclaw' && http) entry = { ...launch, transport: 'streamable-http' };
  const doc =
    runtime === 'openclaw'
      ? { mcp: { servers: { [key]: entry } } }
      : { mcpServers: { [key]: entry } };
  return { format: 'json', snippet: `${JSON.stringify(doc, null, 2)}\n` };
}

/** Builds the attach snippet for one runtime, server and transport. */
export function renderAttach(input: AttachInput, ctx: AttachContext): AttachSnippet {
  const http = input.transport === 'http';
  const launch = http ? httpLaunch(input, ctx) : stdioLaunch(input, ctx);
  const key = MCP_SERVERS[input.server].title;
  // The approval TTL plus a margin for the decision to arrive and the tool to run.
  const tools = input.server === 'tools';
  const waitSec = Math.ceil((ctx.approvalTtlMs ?? DEFAULT_BROKER_CONFIG.approvalTtlMs) / 1000) + 30;
  const out: AttachSnippet = {
    runtime: input.runtime,
    server: input.server,
    transport: input.transport,
    file: FILES[input.runtime],
    ...render(input.runtime, key, launch, http, tools ? waitSec : undefined),
  };
  if (launch.url !== undefined) out.url = launch.url;
  const notes = [
    ...(tools ? [toolsNote(input.runtime, waitSec)] : []),
    ...(!http && ctx.dbUrl?.passwordOmitted === true ? [PASSWORD_NOTE] : []),
  ];
  if (notes.length > 0) out.note = notes.join('; ');
  return out;
}
