// PostgreSQL databases for tests: when CAIRN_TEST_PG_URL names a server (the admin database's
// URL), each test's core gets a database of its own, copied from a migrated template.
import pg from 'pg';

import { openPgStore } from '../src/store/index.js';

/**
 * The run's template database: named per run (global setup sets CAIRN_TEST_PG_TEMPLATE, which
 * the test processes inherit), so two runs on one server never drop each other's template.
 */
function templateDb(): string {
  return process.env['CAIRN_TEST_PG_TEMPLATE'] ?? 'cairn_test_template';
}

/** The admin URL of the test server, or undefined (the suite then runs on SQLite only). */
export function pgAdminUrl(): string | undefined {
  const url = process.env['CAIRN_TEST_PG_URL'];
  return url === undefined || url === '' ? undefined : url;
}

/** `adminUrl` pointing at the database `name` on the same server. */
export function withDatabase(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs `fn` on one client connected to `adminUrl` (any database URL), then disconnects. */
export async function admin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates this run's template database and migrates it (global setup, once per run); the
 * returned function drops it (global teardown).
 */
export async function createTemplate(adminUrl: string): Promise<() => Promise<void>> {
  const name = `cairn_tpl_${process.pid}_${Date.now().toString(36)}`;
  process.env['CAIRN_TEST_PG_TEMPLATE'] = name;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const store = await openPgStore(withDatabase(adminUrl, name));
  await store.close();
  return () =>
    admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
      () => undefined,
    );
}

let counter = 0;

/** A fresh database copied from the template; `drop` removes it. */
export async function freshPgDatabase(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  counter += 1;
  const name = `cairn_t_${process.pid}_${counter}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${templateDb()}`));
  return {
    url: withDatabase(adminUrl, name),
    drop: () =>
      admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
