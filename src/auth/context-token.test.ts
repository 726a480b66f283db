// Context tokens: minted and verified with the key derived from the server secret; expired,
// wrongly-signed, foreign-audience and malformed tokens are refused with plain messages; the
// raw secret is never the key; --ttl parsing.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';

import {
  ContextTokenError,
  contextTokenKey,
  mintContextToken,
  parseTtl,
  verifyContextToken,
} from './context-token.js';

const SECRET = 'unit-test-secret';
const NOW = Date.UTC(2030, 0, 1);

describe('context tokens', () => {
  it('mints a token that verifies to its agent and expiry', async () => {
    const token = await mintContextToken({
      secret: SECRET,
      agent: 'ann',
      ttlSeconds: 60,
      now: NOW,
    });
    expect(token.split('.')).toHaveLength(3);
    await expect(verifyContextToken(SECRET, token, NOW + 1000)).resolves.toEqual({
      agent: 'ann',
      expiresAt: NOW + 60_000,
    });
  });

  it('refuses an expired token, saying so', async () => {
    const token = await mintContextToken({
      secret: SECRET,
      agent: 'ann',
      ttlSeconds: 60,
      now: NOW,
    });
    await expect(verifyContextToken(SECRET, token, NOW + 61_000)).rejects.toThrow(
      /^token expired: mint a new one/,
    );
  });

  it('refuses a token signed with another secret, and one signed with the raw secret', async () => {
    const other = await mintContextToken({ secret: 'another-secret', agent: 'ann', now: NOW });
    await expect(verifyContextToken(SECRET, other, NOW)).rejects.toThrow(
      "token signature does not match this server's secret",
    );
    const raw = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('cairn')
      .setAudience('cairn-context')
      .setSubject('ann')
      .setExpirationTime(NOW / 1000 + 60)
      .sign(new TextEncoder().encode(SECRET));
    await expect(verifyContextToken(SECRET, raw, NOW)).rejects.toBeInstanceOf(ContextTokenError);
    expect(Buffer.from(contextTokenKey(SECRET)).toString()).not.toContain(SECRET);
  });

  it('refuses a token for another audience, a malformed one, and a bad agent name', async () => {
    const foreign = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('cairn')
      .setAudience('something-else')
      .setSubject('ann')
      .setExpirationTime(NOW / 1000 + 60)
      .sign(contextTokenKey(SECRET));
    await expect(verifyContextToken(SECRET, foreign, NOW)).rejects.toThrow(
      'token is not a cairn-context token (aud claim)',
    );
    await expect(verifyContextToken(SECRET, 'not-a-token', NOW)).rejects.toThrow(
      'token is not a valid JWT',
    );
    await expect(verifyContextToken(SECRET, 'a.b.c', NOW)).rejects.toThrow(
      'token is not a valid JWT',
    );
    await expect(mintContextToken({ secret: SECRET, agent: 'has space' })).rejects.toThrow(
      /^agent must be 1 to 128 characters/,
    );
    await expect(mintContextToken({ secret: SECRET, agent: 'ann', ttlSeconds: 0 })).rejects.toThrow(
      /^ttl must be/,
    );
  });

  it('parses --ttl values', () => {
    expect(parseTtl('90')).toBe(90);
    expect(parseTtl('90s')).toBe(90);
    expect(parseTtl('30m')).toBe(1800);
    expect(parseTtl('1h')).toBe(3600);
    expect(parseTtl('7d')).toBe(604_800);
    expect(parseTtl('1w')).toBeNaN();
    expect(parseTtl('-1h')).toBeNaN();
  });
});
