// Who a backplane request acts as: the server API token is the operator, an agent token is
// that agent. Used by the backplane MCP mounts and the /v1 REST routes alike.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Principal } from '../backplane/index.js';
import type { Core } from '../core/index.js';
import { safeEqual } from './binding.js';
import { sendJson } from './respond.js';

/** The spec's JSON-RPC error body for a missing or wrong bearer token. */
export const UNAUTHORIZED_BODY = {
  jsonrpc: '2.0',
  error: { code: -32001, message: 'Unauthorized' },
  id: null,
} as const;

/**
 * The principal of a request, or undefined for a missing or wrong token. With auth disabled
 * (`apiToken` null) a request without any token acts as the operator.
 */
export async function backplanePrincipal(
  core: Core,
  apiToken: string | null,
  req: IncomingMessage,
): Promise<Principal | undefined> {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const token = match?.[1];
  if (token !== undefined) {
    if (apiToken !== null && safeEqual(token, apiToken)) return { kind: 'operator' };
    return core.backplane.agents.authenticateToken(token);
  }
  return apiToken === null ? { kind: 'operator' } : undefined;
}

/**
 * 401 with the spec's JSON-RPC -32001 body (MCP), or `{ error, message }` (REST `/v1`), whose
 * message names the file holding the operator's token.
 */
export function sendUnauthorized(
  res: ServerResponse,
  rpc: boolean,
  tokenFile = '$CAIRN_HOME/api_token',
): void {
  const body = rpc
    ? UNAUTHORIZED_BODY
    : {
        error: 'unauthorized',
        message: `missing or invalid bearer token: send the server's API token (in ${tokenFile}; \`cairn token\` prints it) or an agent's token`,
      };
  sendJson(res, 401, body, { 'www-authenticate': 'Bearer realm="cairn"' });
}
