// A database whose collation is not byte-wise (here ICU en-US) orders text differently from
// SQLite: the store says so once at start (the core logs Store.warnings); a C database is quiet.
import { afterEach, describe, expect, it } from 'vitest';

import { openPgStore } from '../../src/store/index.js';
import { admin, freshPgDatabase, pgAdminUrl, withDatabase } from '../pg-databases.js';

const adminUrl = pgAdminUrl() ?? '';

describe.skipIf(adminUrl === '')('the PostgreSQL database collation', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('is not mentioned when the database orders text as SQLite does', async () => {
    const db = await freshPgDatabase(adminUrl);
    const store = await openPgStore(db.url);
    cleanups.push(db.drop, () => store.close());
    // The test cluster is initialised with --locale=C (.ci/postgres.sh).
    expect(store.warnings).toEqual([]);
  });

  it('is named in a warning at start when text sorts by a locale', async (t) => {
    const name = `cairn_icu_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    try {
      await admin(adminUrl, (c) =>
        c.query(
          `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`,
        ),
      );
    } catch (err) {
      // A server built without ICU cannot create such a database: nothing to check there.
      t.skip(`no ICU collations on this server: ${String(err)}`);
    }
    cleanups.push(() =>
      admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
    );
    const store = await openPgStore(withDatabase(adminUrl, name));
    cleanups.push(() => store.close());
    expect(store.warnings).toContainEqual(expect.stringMatching(/collation is "ICU en-US"/));
    // Still a working store: the warning is advice, not a refusal.
    const row = await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks');
    expect(row?.n).toBe(0);
  });
});
