// Agent credentials: a password (for IRC SASL/PASS) and a bearer token (MCP and REST), each
// shown once and stored only as a salted scrypt hash. Tokens carry a public id so the one row
// to check is found without scanning. Pure functions over node:crypto.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export const AGENT_TOKEN_PREFIX = 'cairn_agent_';

/** scrypt cost: N=2^14, r=8, p=1 (16 MiB, tens of ms), 32-byte key, 16-byte salt. */
const PARAMS = { N: 16_384, r: 8, p: 1, keyLen: 32 } as const;

function derive(
  secret: string,
  salt: Buffer,
  p: { N: number; r: number; p: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      secret,
      salt,
      PARAMS.keyLen,
      { N: p.N, r: p.r, p: p.p, maxmem: 64 * 1024 * 1024 },
      (err, key) => (err === null ? resolve(key) : reject(err)),
    );
  });
}

/** `scrypt$N$r$p$<salt b64url>$<hash b64url>` for a fresh random salt. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, PARAMS);
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** True when `secret` matches a hash made by {@link hashSecret} (constant-time compare). */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((v) => Number.isInteger(v) && v > 0)) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(secret, Buffer.from(salt, 'base64url'), params);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export interface IssuedCredentials {
  password: string;
  token: string;
  tokenId: string;
  passwordHash: string;
  tokenHash: string;
}

/** A new password and token for an agent, with the hashes to store. */
export async function issueCredentials(): Promise<IssuedCredentials> {
  const password = randomBytes(18).toString('base64url');
  const tokenId = randomBytes(9).toString('hex');
  const token = `${AGENT_TOKEN_PREFIX}${tokenId}.${randomBytes(32).toString('base64url')}`;
  const [passwordHash, tokenHash] = await Promise.all([hashSecret(password), hashSecret(token)]);
  return { password, token, tokenId, passwordHash, tokenHash };
}

/** The public id inside an agent token, or undefined when it is not one. */
export function tokenIdOf(token: string): string | undefined {
  if (!token.startsWith(AGENT_TOKEN_PREFIX)) return undefined;
  const m = /^([0-9a-f]{18})\.[A-Za-z0-9_-]{43}$/.exec(token.slice(AGENT_TOKEN_PREFIX.length));
  return m?.[1];
}
