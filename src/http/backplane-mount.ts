// The backplane MCP endpoint, at `POST /mcp` (the spec's path) and `/api/mcp/backplane`.
// Bearer auth answers the spec's JSON-RPC -32001. A client that initializes gets a session
// (Streamable HTTP, JSON responses); a POST without a session is served statelessly, so plain
// JSON-RPC clients (curl, the spec's examples, `params: {}` initialize) work too.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { nickOf, type Principal } from '../backplane/index.js';
import type { Core } from '../core/index.js';
import { createBackplaneServer } from '../mcp/index.js';
import { backplanePrincipal, sendUnauthorized } from './backplane-auth.js';
import { createMcpSessions, NO_SESSION } from './mcp-sessions.js';
import { readRpcBody } from './respond.js';

export interface BackplaneMount {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  sweepIdle(idleMs: number): Promise<number>;
  closeAll(): Promise<void>;
}

const ownerOf = (p: Principal): string => (p.kind === 'operator' ? '' : nickOf(p).toLowerCase());
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fills what a minimal `initialize` (the spec sends `params: {}`) leaves out. */
function withInitDefaults(body: unknown): unknown {
  if (!isObject(body) || body['method'] !== 'initialize') return body;
  const params = isObject(body['params']) ? body['params'] : {};
  return {
    ...body,
    params: {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'unknown', version: '0' },
      ...params,
    },
  };
}

/** Plain JSON-RPC clients may omit the Streamable HTTP headers; answers are JSON either way. */
function normaliseHeaders(req: IncomingMessage): void {
  const set = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  Object.assign(req.headers, set);
  // The SDK's request adapter reads some headers from rawHeaders: rewrite those in place.
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if ((raw[i] ?? '').toLowerCase() in set) raw.splice(i, 2);
  }
  raw.push(...Object.entries(set).flat());
}

/** Creates the backplane endpoint for one HTTP service. */
export function createBackplaneMount(options: {
  core: Core;
  apiToken: string | null;
  maxBodyBytes?: number;
  maxSessions?: number;
  /** This replica's id, the prefix of every session id it issues (replica.ts). */
  replica: string;
}): BackplaneMount {
  const { core } = options;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  // Owner: only the principal that opened a session may use it.
  const sessions = createMcpSessions<string>({
    maxSessions: options.maxSessions ?? 1000,
    replica: options.replica,
    enableJsonResponse: true,
  });
  const mayUse =
    (principal: Principal) =>
    (owner: string): boolean =>
      owner === ownerOf(principal);

  /** One request, no session: a fresh server and transport, closed with the response. */
  async function stateless(
    req: IncomingMessage,
    res: ServerResponse,
    principal: Principal,
    body: unknown,
  ): Promise<void> {
    const server = createBackplaneServer(core, { principal });
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.once('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function post(
    req: IncomingMessage,
    res: ServerResponse,
    principal: Principal,
  ): Promise<void> {
    const raw = await readRpcBody(req, res, maxBody, 'Parse error');
    if (raw === undefined) return;
    const body = withInitDefaults(raw);
    normaliseHeaders(req);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string' && id !== '') {
      const session = sessions.find(id, mayUse(principal));
      if (session === undefined) return sessions.refuse(res, id, NO_SESSION);
      await sessions.serve(session, req, res, body);
      return;
    }
    if (isObject(body) && body['method'] === 'initialize') {
      await sessions.open(req, res, body, ownerOf(principal), () =>
        createBackplaneServer(core, { principal }),
      );
    } else await stateless(req, res, principal, body);
  }

  return {
    async handle(req, res) {
      const principal = await backplanePrincipal(core, options.apiToken, req);
      if (principal === undefined) {
        req.resume();
        sendUnauthorized(res, true);
        return;
      }
      if (req.method === 'POST') return post(req, res, principal);
      const id = req.headers['mcp-session-id'];
      const sessionId = typeof id === 'string' ? id : undefined;
      await sessions.serveOther(req, res, sessionId, sessions.find(sessionId, mayUse(principal)));
    },

    sweepIdle: (idleMs) => sessions.sweepIdle(idleMs),
    closeAll: () => sessions.closeAll(),
  };
}
