// One Streamable HTTP mount (/api/mcp/<name>): a session table (mcp-sessions) keyed by
// `mcp-session-id`, a fresh server per `initialize` bound by its attach URL, POST / GET / DELETE.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';

import type { Core } from '../core/index.js';
import { type Binding, MCP_SERVERS, type McpServerName } from '../mcp/index.js';
import { bindingParams, toBinding, verifyBinding } from './binding.js';
import { createMcpSessions, NO_SESSION } from './mcp-sessions.js';
import { readRpcBody, sendRpcError } from './respond.js';

/** Who authenticated the request: the master token, a scoped token, or nobody (--no-auth). */
export type Principal = { kind: 'master' } | { kind: 'open' } | { kind: 'scoped'; token: string };

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
  /** Owner: the scoped token that opened a session, if any; only it (or the master) may use it. */
  const sessions = createMcpSessions<string | undefined>({
    maxSessions: options.maxSessions ?? 1000,
  });

  const mayUse =
    (principal: Principal) =>
    (scopedToken: string | undefined): boolean =>
      principal.kind !== 'scoped' || scopedToken === principal.token;

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

  return {
    get sessionCount() {
      return sessions.size;
    },

    async handle(req, res, url, principal) {
      const id = sessionHeader(req);
      const session = sessions.find(id, mayUse(principal));
      if (req.method === 'POST') {
        const body = await readRpcBody(
          req,
          res,
          maxBody,
          'Parse error: the body is not valid JSON',
        );
        if (body === undefined) return;
        if (session !== undefined) {
          await sessions.serve(session, req, res, body);
          return;
        }
        if (id === undefined && isInitializeRequest(body)) {
          const scopedToken = principal.kind === 'scoped' ? principal.token : undefined;
          await sessions.open(req, res, body, scopedToken, () =>
            entry.create(core, resolveBinding(url, principal)),
          );
          return;
        }
        sendRpcError(res, id === undefined ? 400 : 404, -32000, NO_SESSION);
        return;
      }
      await sessions.serveOther(req, res, id, session);
    },

    sweepIdle: (idleMs) => sessions.sweepIdle(idleMs),
    closeAll: () => sessions.closeAll(),
  };
}
