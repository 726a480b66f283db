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
 * returned function drops it and every test database of the run a test process left behind
 * (a database created ahead and never used, a test that crashed before its cleanup).
 */
export async function createTemplate(adminUrl: string): Promise<() => Promise<void>> {
  const name = `cairn_tpl_${process.pid}_${Date.now().toString(36)}`;
  process.env['CAIRN_TEST_PG_TEMPLATE'] = name;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const store = await openPgStore(withDatabase(adminUrl, name));
  await store.close();
  return () =>
    admin(adminUrl, async (c) => {
      const left = await c.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
        [`${name}_`],
      );
      for (const { datname } of left.rows)
        await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
}

let counter = 0;
/** How many databases this process's tests asked for (test/pg-file-setup.ts reads it). */
let requests = 0;
export const databaseRequests = (): number => requests;
/** A database being copied from the template ahead of the process's next request. */
let ahead: Promise<string> | undefined;

/** Copies the template into a database named after the run, this process and a counter. */
async function copyTemplate(adminUrl: string): Promise<string> {
  counter += 1;
  const name = `${templateDb()}_${process.pid}_${counter}`;
  const copy = `CREATE DATABASE ${name} TEMPLATE ${templateDb()}`;
  // FILE_COPY copies the template's files (about 60 ms for the migrated template) where
  // PostgreSQL 15's default, WAL_LOG, writes every block through the WAL (about 300 ms);
  // servers before 15 know no STRATEGY and copy files anyway.
  await admin(adminUrl, (c) =>
    c.query(`${copy} STRATEGY FILE_COPY`).catch(async (err: unknown) => {
      if ((err as { code?: string }).code !== '42601') throw err;
      return c.query(copy);
    }),
  );
  return name;
}

/**
 * A fresh database copied from the template; `drop` removes it. A copy takes a few hundred
 * milliseconds of the server's time, so from a process's second request on, the next copy is
 * made while the test runs (the run's teardown drops one left unused).
 */
export async function freshPgDatabase(
  adminUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  requests += 1;
  const first = counter === 0;
  const pending = ahead;
  ahead = undefined;
  const name = await (pending ?? copyTemplate(adminUrl)).catch(() => copyTemplate(adminUrl));
  if (!first) {
    ahead = copyTemplate(adminUrl);
    // Awaited (and its failure retried) by the next request.
    ahead.catch(() => undefined);
  }
  return {
    url: withDatabase(adminUrl, name),
    drop: () =>
      admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/** Drops the database made ahead for a next request that never came (end of a test file). */
export async function dropUnusedAhead(adminUrl: string): Promise<void> {
  const pending = ahead;
  ahead = undefined;
  const name = await pending?.catch(() => undefined);
  if (name === undefined) return;
  await admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
