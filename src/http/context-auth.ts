// The context mount's own bearer: with auth on, /api/mcp/context also opens for a context token
// (an HS256 JWT from `cairn token mint`), whose agent becomes the session's caller. A JWT that
// does not verify is refused with 401 and the JSON-RPC -32001 body, its message plain.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { ContextTokenError, looksLikeJwt, verifyContextToken } from '../auth/index.js';
import { CONTEXT_AUTH_ERROR } from '../mcp/index.js';
import { sendJson } from './respond.js';

/** A context token's verdict: its agent, or why it was refused; undefined when not a JWT. */
export type ContextBearer = { agent: string } | { refused: string } | undefined;

/** Verifies the request's bearer when it is shaped like a JWT (others are the master's check). */
export async function contextBearer(req: IncomingMessage, secret: string): Promise<ContextBearer> {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (token === undefined || !looksLikeJwt(token)) return undefined;
  try {
    return { agent: (await verifyContextToken(secret, token)).agent };
  } catch (err) {
    if (err instanceof ContextTokenError) return { refused: err.message };
    throw err;
  }
}

/** 401 with the JSON-RPC -32001 body naming what is wrong with the token. */
export function sendTokenRefused(req: IncomingMessage, res: ServerResponse, message: string): void {
  sendJson(
    res,
    401,
    { jsonrpc: '2.0', error: { code: CONTEXT_AUTH_ERROR, message }, id: null },
    { 'www-authenticate': 'Bearer realm="cairn", error="invalid_token"' },
  );
  req.resume();
}
