// The shape of a schema migration (see migrations.ts).
import type { SqlValue } from './types.js';

/** Synchronous statements on the SQLite connection, inside a transaction the caller holds. */
export interface SyncDb {
  all<T>(sql: string, params?: readonly SqlValue[]): T[];
  get<T>(sql: string, params?: readonly SqlValue[]): T | undefined;
  run(sql: string, params?: readonly SqlValue[]): void;
}

/** What a migration's `up` step may do besides its SQL (same transaction). */
export interface MigrationDb extends SyncDb {
  exec(sql: string): void;
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Runs after `sql`, for steps plain SQL cannot express (tables named by data). */
  up?: (db: MigrationDb) => void;
  /**
   * The PostgreSQL body. Migrations up to PG_BASELINE_VERSION (src/store/pg/pg-schema.ts) are
   * covered by the translated baseline; every later one must carry its own.
   */
  pg?: string;
}
