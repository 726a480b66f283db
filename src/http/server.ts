// The HTTP façade: DNS-rebinding check, bearer auth on /api/*, the MCP mounts and the attach
// config route, one error handler. Built from a core; listening is the caller's choice.
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

import { createHumanAuth } from '../auth/index.js';
import type { Core } from '../core/index.js';
import { isMcpServerName, MCP_SERVER_NAMES, type McpServerName } from '../mcp/index.js';
import { SIGNAL_SAFETY_POLL_MS } from '../store/index.js';
import { handleAgentsRoute } from './agents-routes.js';
import { createApprovalsWatch } from './approvals-stream.js';
import { attachInput, renderAttach } from './attach.js';
import { createBackplaneMount } from './backplane-mount.js';
import { handleBackplaneRoute } from './backplane-routes.js';
import { createBearerAuth, DEFAULT_TOKEN_FILE, unauthorizedMessage } from './bearer-auth.js';
import { handleBoardRoute } from './board-routes.js';
import { boardViewMark, createBoardWatch } from './board-stream.js';
import { handleBrokerRoute } from './broker-routes.js';
import { contextBearer, sendTokenRefused } from './context-auth.js';
import { allowedHostsFor, checkHostAndOrigin, isLoopbackHost } from './host-check.js';
import { type Caller, handleLoginRoute, handleSessionRoute, sessionOf } from './human-login.js';
import { createMcpMount, type McpMount, type Principal } from './mcp-mount.js';
import { handleMemoryRoute } from './memory-routes.js';
import { REPLICA_HEADER, replicaId } from './replica.js';
import { sendJson } from './respond.js';
import { createRoomsWatch } from './room-feeds.js';
import { handleRoomsRoute } from './rooms-routes.js';
import { handleSessionsRoute } from './sessions-routes.js';
import { DEFAULT_WEB_ROOT, serveStatic } from './static-files.js';

export interface HttpOptions {
  host?: string;
  port?: number;
  /** Bearer token for /api/*; null disables auth (loopback only). */
  apiToken: string | null;
  /** Where the API token was read from, named in 401 answers (default `$CAIRN_HOME/api_token`). */
  apiTokenFile?: string;
  /** HMAC key for attach-URL bindings. */
  secret: string;
  /** Extra Host header values to accept (e.g. a LAN name), as host:port. */
  allowedHosts?: readonly string[];
  /** Idle MCP sessions are closed after this long (default 1 h). */
  sessionIdleMs?: number;
  /** A room stream (`/api/rooms/:room/stream`) sends a keep-alive comment after this long idle (default 15 s). */
  sseKeepAliveMs?: number;
  /** The built dashboard (default web/dist); null serves none. */
  webRoot?: string | null;
  /** This replica's id (CAIRN_REPLICA_ID), prefixing its MCP session ids; default random. */
  replicaId?: string | undefined;
}

export interface HttpService {
  readonly server: NodeServer;
  /** Starts listening; resolves with the bound address. */
  listen(): Promise<{ host: string; port: number; url: string }>;
  /** Closes sessions and stops listening (the core stays open). */
  close(): Promise<void>;
  mounts: ReadonlyMap<McpServerName, McpMount>;
}

/**
 * Creates the HTTP service over a core.
 * @throws Error when auth is disabled on a non-loopback host.
 */
export function createHttpService(core: Core, options: HttpOptions): HttpService {
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 4870;
  if (options.apiToken === null && !isLoopbackHost(host)) {
    throw new Error(`--no-auth is only allowed on a loopback host, not ${host}`);
  }
  const logger = core.logger;
  const authenticate = createBearerAuth({ apiToken: options.apiToken, secret: options.secret });
  const tokenFile = options.apiTokenFile ?? DEFAULT_TOKEN_FILE;
  const replica = replicaId(options.replicaId);
  const mounts = new Map<McpServerName, McpMount>(
    MCP_SERVER_NAMES.map((name) => [
      name,
      createMcpMount({
        name,
        core,
        secret: options.secret,
        logger,
        auth: options.apiToken !== null,
        replica,
      }),
    ]),
  );
  let allowed = allowedHostsFor(host, requestedPort, options.allowedHosts);
  // The backplane authenticates its own principals (operator or agent token) and answers -32001.
  const backplane = createBackplaneMount({ core, apiToken: options.apiToken, replica });
  const backplaneRoutes = {
    core,
    apiToken: options.apiToken,
    apiTokenFile: tokenFile,
    keepAliveMs: options.sseKeepAliveMs,
  };
  // Dashboard: one-time login codes → session cookie (REST only), board REST + change stream.
  const humans = createHumanAuth(core.store);
  const webRoot = options.webRoot === undefined ? DEFAULT_WEB_ROOT : options.webRoot;
  const boardRoutes = {
    board: core.board,
    approvals: core.broker,
    watch: createBoardWatch(boardViewMark(core.board, core.broker), {
      // A board write or an approval's change reads at once (on PostgreSQL, made on any
      // replica); the poll then only covers a missed signal and an approval expiring unwritten.
      ...(core.board.signalsEverywhere ? { intervalMs: SIGNAL_SAFETY_POLL_MS } : {}),
      wake: (fn) => {
        const offBoard = core.board.onChange(fn);
        const offApprovals = core.broker.onApprovalSignal(fn);
        return () => {
          offBoard();
          offApprovals();
        };
      },
      onError: (err) => logger.warn({ err }, 'board change poll failed'),
    }),
    keepAliveMs: options.sseKeepAliveMs,
  };
  const brokerRoutes = {
    core,
    watch: createApprovalsWatch(core.broker, {
      onError: (err) => logger.warn({ err }, 'approvals poll failed'),
    }),
    keepAliveMs: options.sseKeepAliveMs,
  };
  const roomsRoutes = {
    core,
    watch: createRoomsWatch(core, {
      onError: (err) => logger.warn({ err }, 'room list poll failed'),
    }),
    keepAliveMs: options.sseKeepAliveMs,
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader(REPLICA_HEADER, replica);
    const verdict = checkHostAndOrigin(allowed, req.headers.host, req.headers.origin);
    if (!verdict.ok) {
      logger.warn(
        { host: req.headers.host, origin: req.headers.origin },
        'refused request: DNS-rebinding check',
      );
      sendJson(res, 403, { error: 'forbidden', message: verdict.reason });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path === '/healthz') {
      sendJson(res, 200, { ok: true, version: core.version });
      return;
    }
    if (path === '/mcp' || /^\/api\/mcp\/backplane\/?$/.test(path)) {
      await backplane.handle(req, res);
      return;
    }
    if (await handleBackplaneRoute(req, res, url, backplaneRoutes)) return;
    if (!path.startsWith('/api/')) {
      if (webRoot !== null && (await serveStatic(req, res, path, webRoot))) return;
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(
          `Cairn ${core.version} is running. MCP endpoints: ${MCP_SERVER_NAMES.map((n) => `/api/mcp/${n}`).join(', ')}\n`,
        );
        return;
      }
      sendJson(res, 404, { error: 'not found' });
      return;
    }
    const mcpMatch = /^\/api\/mcp\/([a-z]+)\/?$/.exec(path);
    const mcpName =
      mcpMatch?.[1] !== undefined && isMcpServerName(mcpMatch[1]) ? mcpMatch[1] : undefined;
    if (await handleLoginRoute(req, res, url, humans)) return;
    // With auth on, the context mount also opens for a context token (cairn token mint).
    const jwt =
      mcpName === 'context' && options.apiToken !== null
        ? await contextBearer(req, options.secret)
        : undefined;
    if (jwt !== undefined && 'refused' in jwt) return sendTokenRefused(req, res, jwt.refused);
    const auth =
      jwt === undefined
        ? authenticate(req, url, mcpName)
        : { principal: { kind: 'agent' as const, agent: jwt.agent } };
    const bearer = 'principal' in auth ? auth.principal : undefined;
    // The dashboard's session cookie authenticates REST routes, never an MCP mount.
    const session =
      bearer === undefined && mcpName === undefined ? await sessionOf(req, res, humans) : undefined;
    if (session === 'refused') return;
    const principal: Principal | undefined =
      bearer ?? (session === undefined ? undefined : { kind: 'master' });
    if (principal === undefined) {
      const reason = 'refused' in auth ? auth.refused : 'missing_token';
      sendJson(
        res,
        401,
        { error: 'unauthorized', reason, message: unauthorizedMessage(reason, tokenFile) },
        { 'www-authenticate': 'Bearer realm="cairn"' },
      );
      req.resume();
      return;
    }
    if (path === '/api/mcp/config') {
      if (principal.kind === 'scoped') {
        sendJson(res, 403, {
          error: 'forbidden',
          message: 'a scoped token cannot mint attach configs',
        });
        return;
      }
      const parsed = attachInput.safeParse(Object.fromEntries(url.searchParams));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        sendJson(res, 400, {
          error: 'invalid query',
          message: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
        });
        return;
      }
      const baseUrl = `http://${req.headers.host ?? `${host}:${requestedPort}`}`;
      sendJson(
        res,
        200,
        renderAttach(parsed.data, {
          baseUrl,
          apiToken: options.apiToken,
          secret: options.secret,
          dbPath: core.dbPath,
          dbUrl: core.dbUrl,
          approvalTtlMs: core.broker.config.approvalTtlMs,
        }),
      );
      return;
    }
    const caller: Caller =
      session !== undefined
        ? { kind: 'human', session }
        : { kind: principal.kind === 'open' ? 'open' : 'bearer' };
    if (await handleSessionRoute(req, res, url, { humans, caller })) return;
    if (await handleBoardRoute(req, res, url, boardRoutes)) return;
    if (await handleRoomsRoute(req, res, url, roomsRoutes)) return;
    if (await handleBrokerRoute(req, res, url, brokerRoutes)) return;
    if (await handleMemoryRoute(req, res, url, core.memory)) return;
    if (await handleAgentsRoute(req, res, url, core.backplane)) return;
    if (await handleSessionsRoute(req, res, url, core.sessions)) return;
    const mount = mcpName === undefined ? undefined : mounts.get(mcpName);
    if (mount !== undefined) {
      await mount.handle(req, res, url, principal);
      return;
    }
    sendJson(res, 404, { error: 'not found', message: `no route for ${req.method ?? ''} ${path}` });
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      logger.error({ err, path: req.url }, 'http handler failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.end();
    });
  });

  let sweeper: NodeJS.Timeout | undefined;

  return {
    server,
    mounts,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(requestedPort, host, () => {
          server.off('error', reject);
          const addr = server.address() as AddressInfo;
          allowed = allowedHostsFor(host, addr.port, options.allowedHosts);
          const idleMs = options.sessionIdleMs ?? 60 * 60_000;
          sweeper = setInterval(
            () => {
              for (const m of mounts.values()) void m.sweepIdle(idleMs);
              void backplane.sweepIdle(idleMs);
            },
            Math.min(idleMs, 60_000),
          );
          sweeper.unref();
          const shown = host.includes(':') ? `[${host}]` : host;
          resolve({ host, port: addr.port, url: `http://${shown}:${addr.port}` });
        });
      }),
    async close() {
      if (sweeper !== undefined) clearInterval(sweeper);
      await Promise.all([...mounts.values(), backplane].map((m) => m.closeAll()));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
