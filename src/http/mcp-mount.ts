// One Streamable HTTP mount (/api/mcp/<name>): sessions keyed by `mcp-session-id`, a fresh
// server + transport per `initialize`, POST / GET (SSE) / DELETE, the spec's two error texts.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';

import type { Core } from '../core/index.js';
import { type Binding, MCP_SERVERS, type McpServerName } from '../mcp/index.js';
import { bindingParams, toBinding, verifyBinding } from './binding.js';
import { HttpError, readBody, sendJson, sendRpcError } from './respond.js';

export const NO_SESSION = 'No valid session; send an initialize request first.';
export const BAD_SESSION = 'Invalid or missing MCP session id.';

/** Who authenticated the request: the master token, a scoped token, or nobody (--no-auth). */
export type Principal = { kind: 'master' } | { kind: 'open' } | { kind: 'scoped'; token: string };

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** The scoped token that opened it, if any: only that token (or the master) may use it. */
  scopedToken: string | undefined;
  lastSeen: number;
}

export interface McpMountOptions {
  name: McpServerName;
  core: Core;
  secret: string;
  logger: Logger;
  maxBodyBytes?: number;
  maxSessions?: number;
}

export interface McpMount {
  handle(req: IncomingMessage, res: ServerResponse, url: URL, principal: Principal): Promise<void>;
  /** Closes sessions idle for longer than `idleMs`; returns how many. */
  sweepIdle(idleMs: number): Promise<number>;
  closeAll(): Promise<void>;
  readonly sessionCount: number;
}

const sessionHeader = (req: IncomingMessage): string | undefined => {
  const value = req.headers['mcp-session-id'];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** Creates the session table and request handler for one MCP server. */
export function createMcpMount(options: McpMountOptions): McpMount {
  const { name, core, secret, logger } = options;
  const entry = MCP_SERVERS[name];
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 1000;
  const sessions = new Map<string, Session>();

  function usable(session: Session | undefined, principal: Principal): session is Session {
    if (session === undefined) return false;
    if (principal.kind === 'scoped') return session.scopedToken === principal.token;
    return true;
  }

  function resolveBinding(url: URL, principal: Principal): Binding {
    if (principal.kind === 'scoped') {
      // The scoped token was already checked against exactly these params.
      return toBinding(bindingParams(url.searchParams));
    }
    const verified = verifyBinding(secret, name, url.searchParams);
    if (verified.rejected) {
      logger.warn(
        { server: name, params: [...bindingParams(url.searchParams).keys()] },
        'attach URL binding has a missing or wrong signature; serving the session unbound',
      );
    }
    return verified.binding;
  }

  async function parse(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    let raw: string;
    try {
      raw = await readBody(req, maxBody);
    } catch (err) {
      if (err instanceof HttpError) sendRpcError(res, err.status, -32600, err.message);
      else throw err;
      return undefined;
    }
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      sendRpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
      return undefined;
    }
  }

  async function initialize(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
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
    const binding = resolveBinding(url, principal);
    const server = entry.create(core, binding);
    const session: Session = {
      server,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, session);
        },
      }),
      scopedToken: principal.kind === 'scoped' ? principal.token : undefined,
      lastSeen: Date.now(),
    };
    session.transport.onclose = () => {
      const id = session.transport.sessionId;
      if (id !== undefined) sessions.delete(id);
    };
    await server.connect(session.transport);
    await session.transport.handleRequest(req, res, body);
  }

  return {
    get sessionCount() {
      return sessions.size;
    },

    async handle(req, res, url, principal) {
      const id = sessionHeader(req);
      const session = id === undefined ? undefined : sessions.get(id);
      if (req.method === 'POST') {
        const body = await parse(req, res);
        if (body === undefined) return;
        if (usable(session, principal)) {
          session.lastSeen = Date.now();
          await session.transport.handleRequest(req, res, body);
          return;
        }
        if (id === undefined && isInitializeRequest(body)) {
          await initialize(req, res, url, principal, body);
          return;
        }
        sendRpcError(res, id === undefined ? 400 : 404, -32000, NO_SESSION);
        return;
      }
      if (req.method === 'GET' || req.method === 'DELETE') {
        if (!usable(session, principal)) {
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
      const cutoff = Date.now() - idleMs;
      const stale = [...sessions.values()].filter((s) => s.lastSeen < cutoff);
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
