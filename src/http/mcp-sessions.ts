// The session table behind a Streamable HTTP MCP mount: a bounded number of sessions, each a
// server + transport opened by `initialize`, found by `mcp-session-id`, swept when idle. Who
// may use a session is the mount's call (through `owner`); nothing here authenticates. A
// request whose caller is gone (its response stream closed early, its session ended) is
// cancelled at once, so no handler keeps working, or waiting for approval, for nobody. Ids
// name the replica that issued them (replica.ts): sessions are sticky to one `cairn serve`.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

import { replicaSessionId, wrongReplica } from './replica.js';
import { sendJson, sendRpcError } from './respond.js';

export const NO_SESSION = 'No valid session; send an initialize request first.';
export const BAD_SESSION = 'Invalid or missing MCP session id.';

export interface McpSession<Owner> {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Whoever opened it; the mount decides who else may use it. */
  owner: Owner;
  lastSeen: number;
  /** Requests whose response stream is still open. */
  inflight: Set<RequestId>;
}

/** Cancel reasons; the tools server keeps these as they are (see tools-server.ts). */
export const STREAM_CLOSED =
  'transport closed: the client closed the HTTP response stream before the result';
export const SESSION_DELETED = 'session ended: the client deleted its MCP session (HTTP DELETE)';
export const SERVER_CLOSING = 'session ended: the server is shutting down';
export const SESSION_IDLE = 'session ended: idle too long';

/** The ids of the JSON-RPC requests in a POST body (one message or a batch). */
function requestIds(body: unknown): RequestId[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    if (typeof m !== 'object' || m === null) return [];
    const { id, method } = m as { id?: unknown; method?: unknown };
    return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')
      ? [id]
      : [];
  });
}

/**
 * Ends the handlers of `ids` with `reason`: a `notifications/cancelled` handed to the server as
 * if the client had sent it (the SDK aborts the handler's signal with the reason).
 */
function cancelRequests(session: McpSession<unknown>, ids: Iterable<RequestId>, reason: string) {
  for (const requestId of ids) {
    session.transport.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, reason },
    });
  }
}

/** Cancels every open request of a session that is about to close, and lets the server see it. */
async function endRequests(session: McpSession<unknown>, reason: string): Promise<void> {
  if (session.inflight.size === 0) return;
  cancelRequests(session, [...session.inflight], reason);
  session.inflight.clear();
  // The SDK handles notifications a microtask later; close only after that.
  await new Promise((r) => setImmediate(r));
}

export interface McpSessions<Owner> {
  readonly size: number;
  /** The live session named `id`, if `mayUse` accepts its owner. */
  find(id: string | undefined, mayUse: (owner: Owner) => boolean): McpSession<Owner> | undefined;
  /**
   * Answers a request that names no live session: 400 without an `id`, else 404 with `message`,
   * or, when another replica issued `id`, a message saying where it lives (-32000 either way).
   */
  refuse(res: ServerResponse, id: string | undefined, message: string): void;
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

/**
 * Creates an empty session table whose ids start with `replica`; `enableJsonResponse` answers
 * POSTs as JSON, not SSE.
 */
export function createMcpSessions<Owner>(options: {
  maxSessions: number;
  replica: string;
  enableJsonResponse?: boolean;
}): McpSessions<Owner> {
  const { maxSessions, replica } = options;
  const sessions = new Map<string, McpSession<Owner>>();
  const closeEach = (list: McpSession<Owner>[], reason: string): Promise<unknown> =>
    Promise.all(
      list.map(async (s) => {
        await endRequests(s, reason);
        await s.transport.close().catch(() => undefined);
      }),
    );
  const refuse = (res: ServerResponse, id: string | undefined, message: string): void => {
    if (id === undefined) return sendRpcError(res, 400, -32000, message);
    sendRpcError(res, 404, -32000, wrongReplica(id, replica) ?? message);
  };
  const serve = async (
    session: McpSession<Owner>,
    req: IncomingMessage,
    res: ServerResponse,
    body?: unknown,
  ): Promise<void> => {
    session.lastSeen = Date.now();
    const ids = requestIds(body);
    for (const id of ids) session.inflight.add(id);
    res.once('close', () => {
      session.lastSeen = Date.now();
      const open = ids.filter((id) => session.inflight.delete(id));
      if (!res.writableFinished) cancelRequests(session, open, STREAM_CLOSED);
    });
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

    refuse,
    serve,

    async serveOther(req, res, id, session) {
      if (req.method !== 'GET' && req.method !== 'DELETE') {
        const error = `method ${req.method ?? ''} not allowed`;
        sendJson(res, 405, { error }, { allow: 'GET, POST, DELETE' });
        return;
      }
      if (session === undefined) return refuse(res, id, BAD_SESSION);
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
        inflight: new Set(),
        transport: new StreamableHTTPServerTransport({
          sessionIdGenerator: () => replicaSessionId(replica),
          enableJsonResponse: options.enableJsonResponse ?? false,
          onsessioninitialized: (id) => {
            sessions.set(id, session);
          },
          // A DELETE the transport accepted: its requests end before it closes.
          onsessionclosed: () => endRequests(session, SESSION_DELETED),
        }),
      };
      session.transport.onclose = () => {
        const id = session.transport.sessionId;
        if (id !== undefined) sessions.delete(id);
      };
      await server.connect(session.transport);
      await serve(session, req, res, body);
    },

    async sweepIdle(idleMs) {
      const cutoff = Date.now() - idleMs;
      // A session with a request still streaming is not idle: its client is waiting.
      const stale = [...sessions.values()].filter(
        (s) => s.lastSeen < cutoff && s.inflight.size === 0,
      );
      await closeEach(stale, SESSION_IDLE);
      return stale.length;
    },

    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await closeEach(all, SERVER_CLOSING);
    },
  };
}
