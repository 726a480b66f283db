// API key secrets: made at create (`cairn_sk_` + 32 random bytes, base64url), answered once,
// stored only as their sha256 and a short prefix to recognise them by.
import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'cairn_sk_';
/** Characters of the secret kept (and shown) to recognise a key: the prefix and 4 more. */
const SHOWN = API_KEY_PREFIX.length + 4;

/** sha256 of a secret, hex. */
export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new secret with the columns stored for it. */
export function newApiKey(): { secret: string; key_prefix: string; key_hash: string } {
  const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { secret, key_prefix: secret.slice(0, SHOWN), key_hash: hashSecret(secret) };
}
