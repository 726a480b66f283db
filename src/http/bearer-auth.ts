// Bearer auth for /api/* (the backplane mounts have their own, backplane-auth.ts): the master
// token, or a scoped token on exactly the signed attach URL it was minted for. A refusal says
// why (no token, a wrong one, or a signed URL that was edited) and where the API token lives.
import type { IncomingMessage } from 'node:http';

import { isMcpServerName, type McpServerName } from '../mcp/index.js';
import {
  bindingParams,
  safeEqual,
  SCOPED_TOKEN_PREFIX,
  scopedToken,
  verifyBinding,
} from './binding.js';
import type { Principal } from './mcp-mount.js';

/** Why a request was refused: no bearer token, a wrong one, or an edited signed attach URL. */
export type AuthRefusal = 'missing_token' | 'wrong_token' | 'tampered_url';

export type AuthOutcome = { principal: Principal } | { refused: AuthRefusal };

export interface BearerAuthOptions {
  /** The master token; null disables auth (every request is `open`). */
  apiToken: string | null;
  /** HMAC key of attach-URL bindings and scoped tokens. */
  secret: string;
}

/** Shown when the server was not told which file holds its token. */
export const DEFAULT_TOKEN_FILE = '$CAIRN_HOME/api_token';

/** Authenticates one request; `mcpName` is the MCP mount it targets, if any. */
export function createBearerAuth(
  options: BearerAuthOptions,
): (req: IncomingMessage, url: URL, mcpName: McpServerName | undefined) => AuthOutcome {
  const { apiToken, secret } = options;
  /** A scoped token is good only with exactly the (signed) params it was minted for. */
  const scoped = (token: string, url: URL, server: McpServerName): AuthOutcome => {
    const params = bindingParams(url.searchParams);
    if (params.size === 0 || !safeEqual(token, scopedToken(secret, server, params))) {
      return { refused: 'tampered_url' };
    }
    return { principal: { kind: 'scoped', token } };
  };
  return (req, url, mcpName) => {
    if (apiToken === null) return { principal: { kind: 'open' } };
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (token === undefined) return { refused: 'missing_token' };
    if (safeEqual(token, apiToken)) return { principal: { kind: 'master' } };
    if (!token.startsWith(SCOPED_TOKEN_PREFIX)) return { refused: 'wrong_token' };
    if (mcpName !== undefined) {
      // Only the exact signed URL: an edited query or a missing/wrong sig is refused outright.
      if (verifyBinding(secret, mcpName, url.searchParams).rejected) {
        return { refused: 'tampered_url' };
      }
      return scoped(token, url, mcpName);
    }
    // Recognised on the config route (by the binding it names) so that it can answer 403.
    const server = url.searchParams.get('server');
    if (url.pathname === '/api/mcp/config' && server !== null && isMcpServerName(server)) {
      return scoped(token, url, server);
    }
    return { refused: 'wrong_token' };
  };
}

/** The 401 body's `message` for a refusal; `tokenFile` is where this server's token lives. */
export function unauthorizedMessage(refusal: AuthRefusal, tokenFile: string): string {
  const where = `this server's API token is in ${tokenFile} (\`cairn token\` prints it)`;
  switch (refusal) {
    case 'missing_token':
      return `missing bearer token: send "Authorization: Bearer <token>"; ${where}`;
    case 'wrong_token':
      return `wrong bearer token: it is not this server's API token, and a scoped token (cairn_scoped_…) only opens the signed MCP attach URL it came with; ${where}`;
    case 'tampered_url':
      return 'tampered signed URL: this scoped token authorises exactly the attach URL Cairn wrote for it, and the binding parameters or sig of this URL do not match it; use the URL as written, or get a new one from `cairn config` (or /api/mcp/config)';
  }
}
