// Signed attach-URL bindings. The server writes the binding params (scopeTeamId, readOnly, …)
// into the URL it hands out, with `sig` = HMAC-SHA256 over the server name and those params.
// A URL whose signature is missing or wrong is served unbound; a scoped bearer token (which
// authorises exactly one signed binding) is refused outright when the URL was edited.
import { createHmac, timingSafeEqual } from 'node:crypto';

import type { Binding } from '../mcp/index.js';

export const SCOPED_TOKEN_PREFIX = 'cairn_scoped_';
const PARAMS = [
  'readOnly',
  'scopeAgentId',
  'scopeTeamId',
  'scopeTenantId',
  'roomTeamId',
  'postAuthorAgentId',
  'delegate',
] as const;
const ID_PARAMS = [
  'scopeTenantId',
  'scopeTeamId',
  'scopeAgentId',
  'roomTeamId',
  'postAuthorAgentId',
] as const;
const isOn = (value: string | undefined): boolean => value === '1' || value === 'true';

/** The binding params present in a query, normalised (empty values dropped). */
export function bindingParams(query: URLSearchParams): Map<string, string> {
  const out = new Map<string, string>();
  for (const key of PARAMS) {
    const value = query.get(key);
    if (value !== null && value !== '') out.set(key, value);
  }
  return out;
}

function canonical(server: string, params: Map<string, string>): string {
  const pairs = [...params.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  return [
    `cairn-binding-v1`,
    server,
    ...pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`),
  ].join('\n');
}

export function signBinding(secret: string, server: string, params: Map<string, string>): string {
  return createHmac('sha256', secret)
    .update(`sig\n${canonical(server, params)}`)
    .digest('base64url');
}

/**
 * The bearer token that authorises exactly one signed binding. Derived with a different
 * label than `sig`, so a URL seen in a log does not grant access.
 */
export function scopedToken(secret: string, server: string, params: Map<string, string>): string {
  const mac = createHmac('sha256', secret)
    .update(`token\n${canonical(server, params)}`)
    .digest('base64url');
  return `${SCOPED_TOKEN_PREFIX}${mac}`;
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface VerifiedBinding {
  /** The binding to apply (empty when unbound). */
  binding: Binding;
  /** The signature that authorised it, when valid. */
  sig: string | undefined;
  /** Params were present but the signature was missing or wrong. */
  rejected: boolean;
}

/** The binding a set of (verified) params describes. */
export function toBinding(params: Map<string, string>): Binding {
  return {
    readOnly: isOn(params.get('readOnly')),
    scopeTenantId: params.get('scopeTenantId'),
    scopeTeamId: params.get('scopeTeamId'),
    scopeAgentId: params.get('scopeAgentId'),
    roomTeamId: params.get('roomTeamId'),
    postAuthorAgentId: params.get('postAuthorAgentId'),
    delegate: isOn(params.get('delegate')),
  };
}

/** Checks the `sig` of an attach URL's query for `server`. */
export function verifyBinding(
  secret: string,
  server: string,
  query: URLSearchParams,
): VerifiedBinding {
  const params = bindingParams(query);
  if (params.size === 0) return { binding: {}, sig: undefined, rejected: false };
  const sig = query.get('sig') ?? '';
  if (sig !== '' && safeEqual(sig, signBinding(secret, server, params))) {
    return { binding: toBinding(params), sig, rejected: false };
  }
  return { binding: {}, sig: undefined, rejected: true };
}

/** The normalised params of a binding. */
export function paramsOf(binding: Binding): Map<string, string> {
  const params = new Map<string, string>();
  if (binding.readOnly === true) params.set('readOnly', '1');
  if (binding.delegate === true) params.set('delegate', '1');
  for (const key of ID_PARAMS) {
    const value = binding[key];
    if (value !== undefined && value !== '') params.set(key, value);
  }
  return params;
}

/** Builds the query string (with `sig`) for a binding. */
export function signedQuery(secret: string, server: string, binding: Binding): URLSearchParams {
  const params = paramsOf(binding);
  const query = new URLSearchParams([...params.entries()]);
  if (params.size > 0) query.set('sig', signBinding(secret, server, params));
  return query;
}
