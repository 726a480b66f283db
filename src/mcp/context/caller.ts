// Who calls a context tool, when the server has auth on: the agent a verified token names
// (the call's `token` argument, else `_meta["cairn/token"]`, else the HTTP bearer the session
// opened with). A bad token and any `_meta` that tries to set the identity are JSON-RPC
// -32001 with a plain message. Verification itself is the auth domain's (src/auth).
import { AUTHENTICATED_AGENT } from '../../activity/index.js';
import { ContextTokenError, verifyContextToken } from '../../auth/index.js';
import { RpcError } from '../errors.js';

/** JSON-RPC code of a refused token (the spec's and the backplane's "Unauthorized"). */
export const CONTEXT_AUTH_ERROR = -32001;

/** The request `_meta` key a token may travel in. */
export const TOKEN_META_KEY = 'cairn/token';

/** How a server instance authenticates its callers. */
export interface CallerAuth {
  /** The server secret tokens are verified with; undefined when auth is off. */
  tokenSecret?: string | undefined;
  /** The agent the session's HTTP bearer token named, if it was a context token. */
  bearerAgent?: string | undefined;
}

const refuse = (message: string): RpcError => new RpcError(CONTEXT_AUTH_ERROR, message);

/** The token a call carries: its `token` argument, else `_meta["cairn/token"]`. */
function tokenOf(
  args: Readonly<Record<string, unknown>>,
  meta: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const arg = args['token'];
  if (typeof arg === 'string' && arg !== '') return arg;
  const fromMeta = meta?.[TOKEN_META_KEY];
  if (fromMeta === undefined) return undefined;
  if (typeof fromMeta !== 'string') throw refuse(`_meta["${TOKEN_META_KEY}"] must be a string`);
  return fromMeta;
}

/**
 * The authenticated agent of one call, or undefined (auth off, or no token given).
 * @throws RpcError -32001 for `_meta.authenticated_agent` (always) and for a token that does
 *   not verify (auth on).
 */
export async function callerAgent(
  auth: CallerAuth,
  args: Readonly<Record<string, unknown>>,
  meta: Readonly<Record<string, unknown>> | undefined,
): Promise<string | undefined> {
  if (meta !== undefined && Object.hasOwn(meta, AUTHENTICATED_AGENT)) {
    throw refuse(
      `_meta.${AUTHENTICATED_AGENT} cannot be set by the caller: it is the agent a verified token names (send the token as \`token\` or _meta["${TOKEN_META_KEY}"])`,
    );
  }
  const token = tokenOf(args, meta);
  if (auth.tokenSecret === undefined || token === undefined) return auth.bearerAgent;
  try {
    return (await verifyContextToken(auth.tokenSecret, token)).agent;
  } catch (err) {
    if (err instanceof ContextTokenError) throw refuse(err.message);
    throw err;
  }
}
