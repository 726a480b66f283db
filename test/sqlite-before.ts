// A SQLite file as an earlier Cairn left it: the schema of every migration before `version`
// (sqlite-vec loaded, as the store opens it), for migration tests to fill with old rows.
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

import { MIGRATIONS } from '../src/store/migrations.js';
import { applyMigrations } from '../src/store/sqlite.js';

/** Opens `path` and applies the migrations numbered below `version`; the caller closes it. */
export function sqliteBefore(path: string, version: number): Database.Database {
  const db = new Database(path);
  sqliteVec.load(db);
  applyMigrations(
    db,
    MIGRATIONS.filter((m) => m.version < version),
  );
  return db;
}
