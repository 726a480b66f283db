// Dashboard login over HTTP: `POST /api/auth/login-codes` (bearer: mint a one-time code, used
// by `cairn open`), `POST /api/auth/login` (trade a code for an HttpOnly, SameSite=Strict
// session cookie; needs no other auth), `GET /api/auth/session` and `POST /api/auth/logout`.
// The cookie authenticates /api/* REST routes only (never the MCP mounts); writes also need
// the session's CSRF token in `x-cairn-csrf`.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { csrfMatches, type HumanAuth, type HumanSession } from '../auth/index.js';
import { HttpError, readBody, sendJson } from './respond.js';

export const CSRF_HEADER = 'x-cairn-csrf';

/** Who a request is, as far as the login routes care. */
export type Caller =
  { kind: 'bearer' } | { kind: 'open' } | { kind: 'human'; session: HumanSession };

/** One cookie name per port: browsers share cookies across ports of one host. */
export function cookieName(hostHeader: string | undefined): string {
  const port = /:(\d+)$/.exec(hostHeader ?? '')?.[1] ?? '80';
  return `cairn_session_${port}`;
}

/** The value of cookie `name` in a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function setCookie(req: IncomingMessage, value: string, maxAgeS: number): string {
  const name = cookieName(req.headers.host);
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}`;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The session a request's cookie names. `refused` when the cookie is live but a write lacks
 * the CSRF token (the 403 is already sent); undefined when there is no live session.
 */
export async function sessionOf(
  req: IncomingMessage,
  res: ServerResponse,
  humans: HumanAuth,
): Promise<HumanSession | 'refused' | undefined> {
  const token = readCookie(req.headers.cookie, cookieName(req.headers.host));
  if (token === undefined || token === '') return undefined;
  const session = await humans.verifySession(token);
  if (session === undefined) return undefined;
  const presented = req.headers[CSRF_HEADER];
  if (!SAFE.has(req.method ?? 'GET') && !csrfMatches(token, presented?.toString())) {
    req.resume();
    sendJson(res, 403, { error: 'forbidden', message: `missing or wrong ${CSRF_HEADER} header` });
    return 'refused';
  }
  return session;
}

async function redeem(req: IncomingMessage, res: ServerResponse, humans: HumanAuth) {
  let code: unknown;
  try {
    code = (JSON.parse(await readBody(req, 4096)) as { code?: unknown }).code;
  } catch (err) {
    if (err instanceof HttpError) throw err;
  }
  if (typeof code !== 'string' || code === '' || code.length > 200) {
    throw new HttpError(400, 'body must be JSON: { "code": "<login code>" }');
  }
  const session = await humans.redeemLoginCode(code);
  if (session === undefined) {
    sendJson(res, 401, {
      error: 'unauthorized',
      message: 'login code unknown, used or expired; run `cairn open` for a new one',
    });
    return;
  }
  const maxAge = Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000);
  const body = { csrfToken: session.csrfToken, expiresAt: session.expiresAt };
  sendJson(res, 200, body, { 'set-cookie': setCookie(req, session.token, maxAge) });
}

/** `POST /api/auth/login`: runs before auth (the code is the credential). */
export async function handleLoginRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  humans: HumanAuth,
): Promise<boolean> {
  if (url.pathname !== '/api/auth/login') return false;
  try {
    if (req.method !== 'POST') throw new HttpError(405, 'use POST');
    await redeem(req, res, humans);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    req.resume();
    sendJson(res, err.status, { error: 'invalid request', message: err.message });
  }
  return true;
}

function sessionView(caller: Caller): Record<string, unknown> {
  if (caller.kind !== 'human') return { kind: caller.kind, csrfToken: null, expiresAt: null };
  const { csrfToken, expiresAt } = caller.session;
  return { kind: 'human', csrfToken, expiresAt };
}

/** The authenticated login routes; false when the path is not one of them. */
export async function handleSessionRoute(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: { humans: HumanAuth; caller: Caller },
): Promise<boolean> {
  const path = url.pathname;
  const method = req.method ?? 'GET';
  if (path === '/api/auth/session' && method === 'GET') {
    sendJson(res, 200, sessionView(ctx.caller));
  } else if (path === '/api/auth/login-codes' && method === 'POST') {
    req.resume();
    // Only the API token (`cairn open`) mints codes; a browser session cannot breed sessions.
    if (ctx.caller.kind === 'human') {
      sendJson(res, 403, { error: 'forbidden', message: 'login codes need the API token' });
    } else sendJson(res, 201, await ctx.humans.issueLoginCode());
  } else if (path === '/api/auth/logout' && method === 'POST') {
    req.resume();
    if (ctx.caller.kind === 'human') await ctx.humans.endSession(ctx.caller.session.token);
    sendJson(res, 200, { ok: true }, { 'set-cookie': setCookie(req, '', 0) });
  } else return false;
  return true;
}
