// The PostgreSQL backend's own contract: migrating once however many processes open an empty
// database at the same time, SERIALIZABLE writes retried to exactly-once results, the NUL rule,
// readers refusing a database Cairn never migrated, and a location safe to log.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { openPgStore, type Store, StoreMissingError } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { ROOT } from '../helpers.js';
import { freshPgDatabase, pgAdminUrl } from '../pg-databases.js';

const run = promisify(execFile);
const adminUrl = pgAdminUrl() ?? '';

/** An empty database (no template: nothing migrated), dropped after the test. */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cairn_empty_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

describe.skipIf(adminUrl === '')('the PostgreSQL store', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function fresh(): Promise<Store> {
    const db = await freshPgDatabase(adminUrl);
    const store = await openPgStore(db.url);
    cleanups.push(db.drop, () => store.close());
    return store;
  }

  it('migrates an empty database exactly once when 4 processes open it at the same time', async () => {
    const db = await emptyDatabase();
    cleanups.push(db.drop);
    const entry = join(ROOT, 'dist/store/index.js');
    const script = `import(${JSON.stringify(entry)}).then(async (m) => { const s = await m.openPgStore(process.argv[1]); await s.close(); })`;
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        run(process.execPath, ['-e', script, db.url], { timeout: 60_000 }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const store = await openPgStore(db.url);
    cleanups.push(() => store.close());
    const rows = await store.all<{ version: number; n: number }>(
      'SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version ORDER BY version',
    );
    expect(rows.map((r) => r.version)).toEqual(
      MIGRATIONS.map((m) => m.version).sort((a, b) => a - b),
    );
    expect(rows.every((r) => r.n === 1)).toBe(true);
  });

  it('retries conflicting SERIALIZABLE writes so read-modify-write increments are never lost', async () => {
    const first = await fresh();
    const second = await openPgStore(first.locator);
    cleanups.push(() => second.close());
    await first.run(
      "INSERT INTO tool_notes (id, caller, note, created_at) VALUES ('counter', 't', '0', 0)",
    );
    const bump = (store: Store): Promise<void> =>
      store.write(async (tx) => {
        const row = await tx.get<{ note: string }>(
          "SELECT note FROM tool_notes WHERE id = 'counter'",
        );
        await tx.run("UPDATE tool_notes SET note = ? WHERE id = 'counter'", [
          String(Number(row?.note ?? '0') + 1),
        ]);
      });
    await Promise.all(Array.from({ length: 40 }, (_, i) => bump(i % 2 === 0 ? first : second)));
    const row = await first.get<{ note: string }>(
      "SELECT note FROM tool_notes WHERE id = 'counter'",
    );
    expect(row?.note).toBe('40');
  });

  it('stores U+0000 in text as U+FFFD and keeps the rest of the text', async () => {
    const store = await fresh();
    await store.run(
      "INSERT INTO tool_notes (id, caller, note, created_at) VALUES ('nul', 't', ?, 0)",
      ['a\u0000b'],
    );
    const row = await store.get<{ note: string }>("SELECT note FROM tool_notes WHERE id = 'nul'");
    expect(row?.note).toBe('a\uFFFDb');
  });

  it('a reader refuses a database Cairn never migrated, and leaves it empty', async () => {
    const db = await emptyDatabase();
    cleanups.push(db.drop);
    await expect(openPgStore(db.url, { mustExist: true })).rejects.toBeInstanceOf(
      StoreMissingError,
    );
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query("SELECT to_regclass('schema_migrations')::text AS t");
    await c.end();
    expect(rows[0]?.t).toBeNull();
  });

  it('names its location without the password', async () => {
    const store = await fresh();
    const u = new URL(store.locator);
    u.password = 'hunter2';
    expect(store.location).not.toContain('hunter2');
    const withPassword = (await import('../../src/store/pg/pg-errors.js')).redactUrl(u.toString());
    expect(withPassword).not.toContain('hunter2');
    expect(withPassword).toContain('***');
  });
});
