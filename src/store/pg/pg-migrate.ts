// Migrations on PostgreSQL: under a session advisory lock, so replicas starting at once migrate
// exactly once. An empty database gets the baseline (pg-schema.ts) and records every migration
// it covers; each later migration runs its `pg` body, all in one transaction per open.
import type { ClientBase } from 'pg';

import type { Migration } from '../migration-types.js';
import { PG_BASELINE_VERSION, pgBaseline } from './pg-schema.js';

/** The advisory lock key that serialises migrations (any fixed 64-bit number). */
const MIGRATE_LOCK = 7_342_001_116;

export async function migratePg(
  client: ClientBase,
  migrations: readonly Migration[],
): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
  try {
    await client.query('BEGIN');
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    const applied = new Set(
      (await client.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map(
        (r) => Number(r.version),
      ),
    );
    const ordered = [...migrations].sort((a, b) => a.version - b.version);
    const record = (m: Migration): Promise<unknown> =>
      client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [m.version, m.name, Date.now()],
      );
    if (applied.size === 0) {
      for (const step of pgBaseline(migrations))
        await client.query(step.sql, [...(step.params ?? [])]);
      for (const m of ordered.filter((x) => x.version <= PG_BASELINE_VERSION)) {
        await record(m);
        applied.add(m.version);
      }
    }
    for (const m of ordered) {
      if (applied.has(m.version)) continue;
      if (m.pg === undefined)
        throw new Error(`migration ${m.version} (${m.name}) has no PostgreSQL body`);
      await client.query(m.pg);
      await record(m);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]).catch(() => undefined);
  }
}
