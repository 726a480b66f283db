// The session table behind a Streamable HTTP MCP mount: a bounded number of sessions, each a
// server + transport opened by `initialize`, found by `mcp-session-id`, swept when idle. Who
// may use a session is the mount's call (through `owner`); nothing here authenticates.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import { sendJson, sendRpcError } from './respond.js';

export const NO_SESSION = 'No valid session; send an initialize request first.';
export const BAD_SESSION = 'Invalid or missing MCP session id.';

export interface McpSession<Owner> {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Whoever opened it; the mount decides who else may use it. */
  owner: Owner;
  lastSeen: number;
}

export interface McpSessions<Owner> {
  readonly size: number;
  /** The live session named `id`, if `mayUse` accepts its owner. */
  find(id: string | undefined, mayUse: (owner: Owner) => boolean): McpSession<Owner> | undefined;
  /** Hands a request to a live session's transport and marks the session used. */
  serve(
    session: McpSession<Owner>,
    req: IncomingMessage,
    res: ServerResponse,
    body?: unknown,
  ): Promise<void>;
  /**
   * Serves a request other than POST: GET (the SSE stream) and DELETE go to `session`; with none,
   * a missing `id` answers 400 and any other 404 (BAD_SESSION); other methods answer 405.
   */
  serveOther(
    req: IncomingMessage,
    res: ServerResponse,
    id: string | undefined,
    session: McpSession<Owner> | undefined,
  ): Promise<void>;
  /**
   * Opens a session for an `initialize` request: a server from `create`, a transport that joins
   * the table once the SDK assigns the id. Answers 503 (-32000) when the table is full.
   */
  open(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    owner: Owner,
    create: () => Server,
  ): Promise<void>;
  /** Closes sessions idle for longer than `idleMs`; returns how many. */
  sweepIdle(idleMs: number): Promise<number>;
  closeAll(): Promise<void>;
}

/** Creates an empty session table; `enableJsonResponse` answers POSTs as JSON, not SSE. */
export function createMcpSessions<Owner>(options: {
  maxSessions: number;
  enableJsonResponse?: boolean;
}): McpSessions<Owner> {
  const { maxSessions } = options;
  const sessions = new Map<string, McpSession<Owner>>();
  const closeEach = (list: McpSession<Owner>[]): Promise<unknown> =>
    Promise.all(list.map((s) => s.transport.close().catch(() => undefined)));
  const serve = async (
    session: McpSession<Owner>,
    req: IncomingMessage,
    res: ServerResponse,
    body?: unknown,
  ): Promise<void> => {
    session.lastSeen = Date.now();
    await session.transport.handleRequest(req, res, body);
  };

  return {
    get size() {
      return sessions.size;
    },

    find(id, mayUse) {
      const session = id === undefined ? undefined : sessions.get(id);
      return session !== undefined && mayUse(session.owner) ? session : undefined;
    },

    serve,

    async serveOther(req, res, id, session) {
      if (req.method !== 'GET' && req.method !== 'DELETE') {
        const error = `method ${req.method ?? ''} not allowed`;
        sendJson(res, 405, { error }, { allow: 'GET, POST, DELETE' });
        return;
      }
      if (session === undefined) {
        sendRpcError(res, id === undefined ? 400 : 404, -32000, BAD_SESSION);
        return;
      }
      await serve(session, req, res);
    },

    async open(req, res, body, owner, create) {
      if (sessions.size >= maxSessions) {
        sendRpcError(
          res,
          503,
          -32000,
          `too many open sessions (max ${maxSessions}); close one and retry`,
        );
        return;
      }
      const server = create();
      const session: McpSession<Owner> = {
        server,
        owner,
        lastSeen: Date.now(),
        transport: new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: options.enableJsonResponse ?? false,
          onsessioninitialized: (id) => {
            sessions.set(id, session);
          },
        }),
      };
      session.transport.onclose = () => {
        const id = session.transport.sessionId;
        if (id !== undefined) sessions.delete(id);
      };
      await server.connect(session.transport);
      await session.transport.handleRequest(req, res, body);
    },

    async sweepIdle(idleMs) {
      const cutoff = Date.now() - idleMs;
      const stale = [...sessions.values()].filter((s) => s.lastSeen < cutoff);
      await closeEach(stale);
      return stale.length;
    },

    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await closeEach(all);
    },
  };
}
