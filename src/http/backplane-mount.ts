// The backplane MCP endpoint, at `POST /mcp` (the spec's path) and `/api/mcp/backplane`.
// Bearer auth answers the spec's JSON-RPC -32001. A client that initializes gets a session
// (Streamable HTTP, JSON responses); a POST without a session is served statelessly, so plain
// JSON-RPC clients (curl, the spec's examples, `params: {}` initialize) work too.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { nickOf, type Principal } from '../backplane/index.js';
import type { Core } from '../core/index.js';
import { createBackplaneServer } from '../mcp/index.js';
import { backplanePrincipal, sendUnauthorized } from './backplane-auth.js';
import { BAD_SESSION, NO_SESSION } from './mcp-mount.js';
import { HttpError, readBody, sendJson, sendRpcError } from './respond.js';

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Only the principal that opened a session may use it. */
  owner: string;
  lastSeen: number;
}

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
}): BackplaneMount {
  const { core } = options;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 1000;
  const sessions = new Map<string, Session>();

  async function parse(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    let raw: string;
    try {
      raw = await readBody(req, maxBody);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      sendRpcError(res, err.status, -32600, err.message);
      return undefined;
    }
    try {
      return withInitDefaults(JSON.parse(raw) as unknown);
    } catch {
      sendRpcError(res, 400, -32700, 'Parse error');
      return undefined;
    }
  }

  async function open(
    req: IncomingMessage,
    res: ServerResponse,
    principal: Principal,
    body: unknown,
  ): Promise<void> {
    if (sessions.size >= maxSessions) {
      sendRpcError(
        res,
        503,
        -32000,
        `too many open sessions (max ${maxSessions}); close one and retry`,
      );
      return;
    }
    const server = createBackplaneServer(core, { principal });
    const session: Session = {
      server,
      owner: ownerOf(principal),
      lastSeen: Date.now(),
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void sessions.set(id, session),
      }),
    };
    session.transport.onclose = () => {
      const id = session.transport.sessionId;
      if (id !== undefined) sessions.delete(id);
    };
    await server.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
  }

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
    const body = await parse(req, res);
    if (body === undefined) return;
    normaliseHeaders(req);
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string' && id !== '') {
      const session = sessions.get(id);
      if (session === undefined || session.owner !== ownerOf(principal)) {
        sendRpcError(res, 404, -32000, NO_SESSION);
        return;
      }
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (isObject(body) && body['method'] === 'initialize') await open(req, res, principal, body);
    else await stateless(req, res, principal, body);
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
      if (req.method === 'GET' || req.method === 'DELETE') {
        const id = req.headers['mcp-session-id'];
        const session = typeof id === 'string' ? sessions.get(id) : undefined;
        if (session === undefined || session.owner !== ownerOf(principal)) {
          sendRpcError(res, id === undefined ? 400 : 404, -32000, BAD_SESSION);
          return;
        }
        session.lastSeen = Date.now();
        await session.transport.handleRequest(req, res);
        return;
      }
      sendJson(
        res,
        405,
        { error: `method ${req.method ?? ''} not allowed` },
        { allow: 'GET, POST, DELETE' },
      );
    },

    async sweepIdle(idleMs) {
      const stale = [...sessions.values()].filter((s) => s.lastSeen < Date.now() - idleMs);
      await Promise.all(stale.map((s) => s.transport.close().catch(() => undefined)));
      return stale.length;
    },

    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.transport.close().catch(() => undefined)));
    },
  };
}
