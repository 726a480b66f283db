// Dashboard logins for the humans who run Cairn: one-time login codes (short-lived, single use)
// traded for a browser session, and the CSRF token bound to that session. Only hashes are
// stored. This module knows nothing of HTTP or cookies; the façade carries the tokens.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

import type { Store } from '../store/index.js';

export const LOGIN_CODE_TTL_MS = 5 * 60_000;
export const SESSION_TTL_MS = 12 * 60 * 60_000;

export interface HumanAuthOptions {
  /** Milliseconds since the epoch; injectable for tests. */
  clock?: () => number;
  codeTtlMs?: number;
  sessionTtlMs?: number;
}

export interface LoginCode {
  code: string;
  expiresAt: string;
}

export interface HumanSession {
  /** The secret the browser keeps in an HttpOnly cookie. */
  token: string;
  /** Sent back by the page in a header on every write. */
  csrfToken: string;
  expiresAt: string;
}

export type HumanAuth = ReturnType<typeof createHumanAuth>;

const hash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const secret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

/** The CSRF token of a session: derived from the session secret, so nothing more is stored. */
export function csrfTokenFor(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url');
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfMatches(sessionToken: string, presented: string | undefined): boolean {
  if (presented === undefined || presented === '') return false;
  const want = Buffer.from(csrfTokenFor(sessionToken));
  const got = Buffer.from(presented);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Builds the login service over a store. */
export function createHumanAuth(store: Store, options: HumanAuthOptions = {}) {
  const clock = options.clock ?? Date.now;
  const codeTtlMs = options.codeTtlMs ?? LOGIN_CODE_TTL_MS;
  const sessionTtlMs = options.sessionTtlMs ?? SESSION_TTL_MS;

  return {
    /** Mints a one-time login code (valid `codeTtlMs`); purges stale codes and sessions. */
    async issueLoginCode(): Promise<LoginCode> {
      const code = secret('');
      const now = clock();
      await store.write(async (tx) => {
        await tx.run('DELETE FROM login_codes WHERE expires_at <= ? OR used_at IS NOT NULL', [now]);
        await tx.run('DELETE FROM human_sessions WHERE expires_at <= ?', [now]);
        await tx.run(
          'INSERT INTO login_codes (code_hash, created_at, expires_at) VALUES (?, ?, ?)',
          [hash(code), now, now + codeTtlMs],
        );
      });
      return { code, expiresAt: new Date(now + codeTtlMs).toISOString() };
    },

    /**
     * Trades a login code for a session. The code is spent in the same transaction, so two
     * redeemers racing one code cannot both win. Undefined when unknown, used or expired.
     */
    async redeemLoginCode(code: string): Promise<HumanSession | undefined> {
      const token = secret('cs_');
      const now = clock();
      const expires = now + sessionTtlMs;
      const ok = await store.write(async (tx) => {
        const spent = await tx.run(
          'UPDATE login_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?',
          [now, hash(code), now],
        );
        if (spent.changes !== 1) return false;
        await tx.run(
          'INSERT INTO human_sessions (token_hash, created_at, expires_at) VALUES (?, ?, ?)',
          [hash(token), now, expires],
        );
        return true;
      });
      if (!ok) return undefined;
      return { token, csrfToken: csrfTokenFor(token), expiresAt: new Date(expires).toISOString() };
    },

    /** The live session a cookie names, or undefined (unknown, expired or logged out). */
    async verifySession(token: string): Promise<HumanSession | undefined> {
      const row = await store.get<{ expires_at: number }>(
        'SELECT expires_at FROM human_sessions WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?',
        [hash(token), clock()],
      );
      if (row === undefined) return undefined;
      const expiresAt = new Date(row.expires_at).toISOString();
      return { token, csrfToken: csrfTokenFor(token), expiresAt };
    },

    /** Logs a session out; later requests carrying its cookie are refused. */
    async endSession(token: string): Promise<void> {
      await store.run(
        'UPDATE human_sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL',
        [clock(), hash(token)],
      );
    },
  };
}
