// Opening a SQLite file: the driver handle, retries of lock contention while opening, and the
// forward-only migrations (applied inside BEGIN IMMEDIATE, so several processes opening a new
// file migrate it once). Part of the SQLite backend; sqlite.ts builds the store on it.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import Database from 'better-sqlite3';

import { isBusyError, StoreMissingError } from './errors.js';
import type { Migration, MigrationDb } from './migrations.js';
import type { SqlValue } from './types.js';

export type Driver = Database.Database;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Jittered exponential backoff: 2, 4, 8 … capped at 50 ms, scaled by a random 0.5–1.5. */
export function backoffMs(attempt: number): number {
  const base = Math.min(50, 2 ** Math.min(attempt + 1, 6));
  return base * (0.5 + Math.random());
}

/** Retries a synchronous driver step on lock contention (used while opening). */
export async function retryBusy<T>(budgetMs: number, step: () => T): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return step();
    } catch (err) {
      if (!isBusyError(err) || Date.now() >= deadline) throw err;
      await sleep(backoffMs(attempt));
    }
  }
}

/**
 * Applies, in version order, every migration the file has not recorded yet (not only those
 * above the highest: a migration merged out of order still runs once).
 */
export function applyMigrations(db: Driver, migrations: readonly Migration[]): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const applied = new Set(
      (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
        (r) => r.version,
      ),
    );
    const insert = db.prepare(
      'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
    );
    const statements = new Map<string, Database.Statement>();
    const prepare = (sql: string): Database.Statement => {
      const stmt = statements.get(sql) ?? db.prepare(sql);
      statements.set(sql, stmt);
      return stmt;
    };
    const helper: MigrationDb = {
      exec: (sql) => void db.exec(sql),
      all: <T>(sql: string, params: readonly SqlValue[] = []) => prepare(sql).all(...params) as T[],
      get: <T>(sql: string, params: readonly SqlValue[] = []) =>
        prepare(sql).get(...params) as T | undefined,
      run: (sql, params = []) => void prepare(sql).run(...params),
    };
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      m.up?.(helper);
      insert.run(m.version, m.name, Date.now());
    }
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** The driver handle: created (with its folder) unless `mustExist`, which refuses a missing file. */
export function openDriver(location: string, mustExist: boolean): Driver {
  if (location === ':memory:') return new Database(location);
  if (!mustExist) {
    mkdirSync(dirname(location), { recursive: true });
    return new Database(location);
  }
  if (!existsSync(location)) throw new StoreMissingError(location);
  try {
    return new Database(location, { fileMustExist: true });
  } catch (err) {
    if (!existsSync(location)) throw new StoreMissingError(location, err);
    throw err;
  }
}
