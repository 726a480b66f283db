// The PostgreSQL baseline: the schema the SQLite migrations up to PG_BASELINE_VERSION build,
// read back from an in-memory SQLite database and translated (pg-ddl.ts). A PostgreSQL store
// starts from it; later migrations carry their own PostgreSQL body (Migration.pg).
import * as sqliteVec from 'sqlite-vec';

import type { Migration } from '../migration-types.js';
import { applyMigrations, openDriver } from '../sqlite-open.js';
import {
  byReferences,
  PG_FUNCTIONS,
  pgIndex,
  pgTable,
  pgTrigger,
  type SchemaObject,
  translatable,
} from './pg-ddl.js';

/** The last migration the baseline covers; every later one needs a `pg` body. */
export const PG_BASELINE_VERSION = 31;

let cached: string[] | undefined;

/** The baseline's statements in order: functions, tables, indexes, triggers. */
export function pgBaseline(migrations: readonly Migration[]): string[] {
  if (cached !== undefined) return cached;
  const db = openDriver(':memory:', false);
  try {
    sqliteVec.load(db);
    applyMigrations(
      db,
      migrations.filter((m) => m.version <= PG_BASELINE_VERSION),
    );
    const objects = (
      db
        .prepare('SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL')
        .all() as SchemaObject[]
    ).filter(translatable);
    const of = (type: SchemaObject['type']): SchemaObject[] =>
      objects.filter((o) => o.type === type);
    cached = [
      PG_FUNCTIONS,
      ...byReferences(of('table')).map((t) => pgTable(t.sql)),
      ...of('index').map((i) => pgIndex(i.sql)),
      ...of('trigger').flatMap((t) => pgTrigger(t.sql)),
    ];
    return cached;
  } finally {
    db.close();
  }
}
