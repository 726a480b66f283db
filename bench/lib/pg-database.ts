// A throwaway PostgreSQL database for a bench or eval run on the PostgreSQL backend: created on
// the server the given URL names, dropped afterwards. Only ever drops the database it created.
import pg from 'pg';

async function onServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates an empty database named after `label` on the server of `serverUrl`. */
export async function createPgDatabase(
  serverUrl: string,
  label: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cairn_eval_${label.replace(/\W/g, '_')}_${process.pid}_${Date.now().toString(36)}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
