// Login codes, sessions and CSRF tokens over a real store file.
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { tempDir, type TempDir } from '../../test/helpers.js';
import { openSqliteStore, type Store } from '../store/index.js';
import { createHumanAuth, csrfMatches, csrfTokenFor } from './human-auth.js';

let dir: TempDir | undefined;
let store: Store | undefined;

async function setup(): Promise<{ now: { t: number }; auth: ReturnType<typeof createHumanAuth> }> {
  dir = tempDir();
  store = await openSqliteStore(join(dir.path, 'cairn.db'));
  const now = { t: 1_700_000_000_000 };
  const auth = createHumanAuth(store, { clock: () => now.t, codeTtlMs: 1000, sessionTtlMs: 5000 });
  return { now, auth };
}

afterEach(async () => {
  await store?.close();
  dir?.cleanup();
});

describe('human auth', () => {
  it('trades a code for a session exactly once', async () => {
    const { auth } = await setup();
    const { code } = await auth.issueLoginCode();
    const session = await auth.redeemLoginCode(code);
    expect(session?.token).toMatch(/^cs_/);
    expect(session?.csrfToken).toBe(csrfTokenFor(session?.token ?? ''));
    expect(await auth.redeemLoginCode(code)).toBeUndefined();
    expect(await auth.verifySession(session?.token ?? '')).toMatchObject({
      csrfToken: session?.csrfToken,
    });
  });

  it('refuses an expired code and an unknown one', async () => {
    const { now, auth } = await setup();
    const { code } = await auth.issueLoginCode();
    now.t += 1000;
    expect(await auth.redeemLoginCode(code)).toBeUndefined();
    expect(await auth.redeemLoginCode('not-a-code')).toBeUndefined();
  });

  it('lets only one of two racing redeemers win', async () => {
    const { auth } = await setup();
    const { code } = await auth.issueLoginCode();
    const got = await Promise.all([auth.redeemLoginCode(code), auth.redeemLoginCode(code)]);
    expect(got.filter((s) => s !== undefined)).toHaveLength(1);
  });

  it('expires and ends sessions', async () => {
    const { now, auth } = await setup();
    const a = await auth.redeemLoginCode((await auth.issueLoginCode()).code);
    const b = await auth.redeemLoginCode((await auth.issueLoginCode()).code);
    await auth.endSession(a?.token ?? '');
    expect(await auth.verifySession(a?.token ?? '')).toBeUndefined();
    expect(await auth.verifySession(b?.token ?? '')).toBeDefined();
    now.t += 5000;
    expect(await auth.verifySession(b?.token ?? '')).toBeUndefined();
  });

  it('stores only hashes', async () => {
    const { auth } = await setup();
    const { code } = await auth.issueLoginCode();
    const session = await auth.redeemLoginCode(code);
    const rows = await store?.all<Record<string, unknown>>(
      'SELECT * FROM login_codes UNION ALL SELECT * FROM human_sessions',
    );
    const text = JSON.stringify(rows);
    expect(text).not.toContain(code);
    expect(text).not.toContain(session?.token);
  });

  it('matches CSRF tokens in constant time and refuses others', () => {
    const token = 'cs_example';
    expect(csrfMatches(token, csrfTokenFor(token))).toBe(true);
    expect(csrfMatches(token, csrfTokenFor('cs_other'))).toBe(false);
    expect(csrfMatches(token, undefined)).toBe(false);
    expect(csrfMatches(token, 'short')).toBe(false);
  });
});
