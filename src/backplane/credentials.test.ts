import { describe, expect, it } from 'vitest';

import { hashSecret, issueCredentials, tokenIdOf, verifySecret } from './credentials.js';

describe('credentials', () => {
  it('hashes with a fresh salt and verifies only the right secret', async () => {
    const [a, b] = await Promise.all([hashSecret('s3cret'), hashSecret('s3cret')]);
    expect(a).not.toBe(b);
    expect(await verifySecret('s3cret', a)).toBe(true);
    expect(await verifySecret('s3cret!', a)).toBe(false);
    expect(await verifySecret('s3cret', 'revoked')).toBe(false);
    expect(await verifySecret('s3cret', 'scrypt$0$8$1$aa$bb')).toBe(false);
  });

  it('issues a token whose public id finds its row', async () => {
    const c = await issueCredentials();
    expect(tokenIdOf(c.token)).toBe(c.tokenId);
    expect(tokenIdOf('cairn_test-master-token')).toBeUndefined();
    expect(await verifySecret(c.token, c.tokenHash)).toBe(true);
    expect(await verifySecret(c.password, c.passwordHash)).toBe(true);
  });
});
