// The shape of a schema migration (see migrations.ts).
import type { SqlValue } from './types.js';

/** What a migration's `up` step may do besides its SQL (same transaction). */
export interface MigrationDb {
  exec(sql: string): void;
  all<T>(sql: string, params?: readonly SqlValue[]): T[];
  get<T>(sql: string, params?: readonly SqlValue[]): T | undefined;
  run(sql: string, params?: readonly SqlValue[]): void;
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Runs after `sql`, for steps plain SQL cannot express (tables named by data). */
  up?: (db: MigrationDb) => void;
}
