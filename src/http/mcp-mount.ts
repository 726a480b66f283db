// One Streamable HTTP mount (/api/mcp/<name>): a session table (mcp-sessions) keyed by
// `mcp-session-id`, a fresh server per `initialize` bound by its attach URL, POST / GET / DELETE.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';

import type { Core } from '../core/index.js';
import {
  type Binding,
  type ConnectionAuth,
  MCP_SERVERS,
  type McpServerEntry,
  type McpServerName,
} from '../mcp/index.js';
import { InvalidInputError } from '../shared/index.js';
import { bindingParams, toBinding, verifyBinding } from './binding.js';
import { createMcpSessions, NO_SESSION } from './mcp-sessions.js';
import { readRpcBody, sendRpcError } from './respond.js';

/**
 * Who authenticated the request: the master token, a scoped token, a context token naming an
 * agent (the context mount only), or nobody (--no-auth).
 */
export type Principal =
  | { kind: 'master' }
  | { kind: 'open' }
  | { kind: 'scoped'; token: string }
  | { kind: 'agent'; agent: string };

export interface McpMountOptions {
  name: McpServerName;
  core: Core;
  secret: string;
  logger: Logger;
  maxBodyBytes?: number;
  maxSessions?: number;
  /** Whether the server has auth on (the context server then verifies per-call tokens). */
  auth?: boolean;
  /** This replica's id, the prefix of every session id it issues (replica.ts). */
  replica: string;
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
  const entry: McpServerEntry = MCP_SERVERS[name];
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  /**
   * Owner: the scoped token (or `agent:<name>` of the context token) that opened a session, if
   * any; only it (or the master) may use it.
   */
  const sessions = createMcpSessions<string | undefined>({
    maxSessions: options.maxSessions ?? 1000,
    replica: options.replica,
  });

  const ownerOf = (principal: Principal): string | undefined =>
    principal.kind === 'scoped'
      ? principal.token
      : principal.kind === 'agent'
        ? `agent:${principal.agent}`
        : undefined;
  const mayUse =
    (principal: Principal) =>
    (owner: string | undefined): boolean =>
      (principal.kind !== 'scoped' && principal.kind !== 'agent') || owner === ownerOf(principal);

  /** The caller auth of a session: per-call tokens verified (auth on), the bearer's agent. */
  const connectionAuth = (principal: Principal): ConnectionAuth => ({
    tokenSecret: options.auth === true ? secret : undefined,
    bearerAgent: principal.kind === 'agent' ? principal.agent : undefined,
  });

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

  /** The URL's unsigned connection choices (`?graph=`), or why one is refused. */
  function choices(url: URL): { binding: Binding } | { refused: string } {
    try {
      return { binding: entry.fromQuery?.(url.searchParams) ?? {} };
    } catch (e) {
      if (e instanceof InvalidInputError) return { refused: e.message };
      throw e;
    }
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
          const chosen = choices(url);
          if ('refused' in chosen) return sendRpcError(res, 400, -32602, chosen.refused);
          await sessions.open(req, res, body, ownerOf(principal), () =>
            entry.create(
              core,
              { ...resolveBinding(url, principal), ...chosen.binding },
              connectionAuth(principal),
            ),
          );
          return;
        }
        sessions.refuse(res, id, NO_SESSION);
        return;
      }
      await sessions.serveOther(req, res, id, session);
    },

    sweepIdle: (idleMs) => sessions.sweepIdle(idleMs),
    closeAll: () => sessions.closeAll(),
  };
}
