// Agent tokens of the context server: HS256 JWTs (jose) naming one agent, signed with a key
// derived from the server secret (HMAC-SHA256 of a fixed label), never the secret itself, so
// the attach-URL signatures and these tokens cannot stand in for one another. Sign and verify
// only: who may present a token, and where, is the façades' business.
import { createHmac } from 'node:crypto';

import { errors, jwtVerify, SignJWT } from 'jose';

import { DomainError } from '../shared/index.js';

/** The `iss` and `aud` of every context token (a token for anything else is refused). */
export const CONTEXT_TOKEN_ISSUER = 'cairn';
export const CONTEXT_TOKEN_AUDIENCE = 'cairn-context';

/** Default and longest lifetime of a minted token. */
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;
export const MAX_TOKEN_TTL_SECONDS = 366 * 86_400;

const KEY_LABEL = 'cairn context token v1';
const AGENT = /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/;

/** A token that does not identify anyone: malformed, expired, or signed with another key. */
export class ContextTokenError extends DomainError {
  constructor(message: string) {
    super('token_invalid', message);
  }
}

/** The HS256 key for context tokens, derived from the server secret. */
export function contextTokenKey(secret: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', secret).update(KEY_LABEL).digest());
}

/** Why `agent` cannot name a token's agent, or undefined when it can. */
export function agentNameProblem(agent: string): string | undefined {
  if (AGENT.test(agent)) return undefined;
  return 'must be 1 to 128 characters: letters, digits and . _ @ : - (starting with a letter or digit)';
}

/** What mintContextToken needs. */
export interface MintOptions {
  secret: string;
  agent: string;
  /** Lifetime in seconds (default one hour, at most MAX_TOKEN_TTL_SECONDS). */
  ttlSeconds?: number;
  /** Milliseconds since the epoch (default Date.now). */
  now?: number;
}

/**
 * A signed token for `agent`, valid `ttlSeconds` from `now`.
 * @throws ContextTokenError for a bad agent name or lifetime.
 */
export async function mintContextToken(options: MintOptions): Promise<string> {
  const problem = agentNameProblem(options.agent);
  if (problem !== undefined) throw new ContextTokenError(`agent ${problem}`);
  const ttl = options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (!Number.isSafeInteger(ttl) || ttl < 1 || ttl > MAX_TOKEN_TTL_SECONDS) {
    throw new ContextTokenError(`ttl must be 1 s to ${MAX_TOKEN_TTL_SECONDS} s (366 days)`);
  }
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(CONTEXT_TOKEN_ISSUER)
    .setAudience(CONTEXT_TOKEN_AUDIENCE)
    .setSubject(options.agent)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(contextTokenKey(options.secret));
}

/** Who a good token names, and until when (ms since the epoch). */
export interface VerifiedToken {
  agent: string;
  expiresAt: number;
}

/** A string shaped like a JWT (three base64url parts): worth verifying rather than comparing. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

/** The plain sentence for a token jose refused. */
function refusal(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'token expired: mint a new one (cairn token mint)';
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return "token signature does not match this server's secret: it was minted by another server";
  }
  if (err instanceof errors.JWTClaimValidationFailed) {
    return `token is not a cairn-context token (${err.claim} claim)`;
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return 'token is not signed with HS256';
  return 'token is not a valid JWT';
}

/**
 * Checks `token` against the server secret: signature (HS256 with the derived key), issuer,
 * audience, expiry and subject.
 * @throws ContextTokenError with a plain message naming what is wrong.
 */
export async function verifyContextToken(
  secret: string,
  token: string,
  now: number = Date.now(),
): Promise<VerifiedToken> {
  if (!looksLikeJwt(token)) throw new ContextTokenError('token is not a valid JWT');
  let payload;
  try {
    ({ payload } = await jwtVerify(token, contextTokenKey(secret), {
      algorithms: ['HS256'],
      issuer: CONTEXT_TOKEN_ISSUER,
      audience: CONTEXT_TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp'],
      currentDate: new Date(now),
    }));
  } catch (err) {
    throw new ContextTokenError(refusal(err));
  }
  const agent = payload.sub ?? '';
  if (agentNameProblem(agent) !== undefined) {
    throw new ContextTokenError('token names no valid agent (sub claim)');
  }
  return { agent, expiresAt: (payload.exp ?? 0) * 1000 };
}

/** `--ttl`: seconds from `90s`, `30m`, `1h`, `7d` or a plain number of seconds; NaN if not. */
export function parseTtl(value: string): number {
  const m = /^(\d{1,9})([smhd]?)$/.exec(value.trim());
  if (m?.[1] === undefined) return Number.NaN;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] ?? ''] ?? Number.NaN;
  return Number(m[1]) * unit;
}
