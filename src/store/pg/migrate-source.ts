// The SQLite side of migrate-store: the file opened read-only (never created, never migrated)
// with one read transaction held for the whole run, so the copy and its verification both see
// one consistent snapshot even while a server keeps writing. Integers are read exactly (BigInt).
import { existsSync } from 'node:fs';

import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

import { StoreMissingError } from '../errors.js';
import type { SchemaObject } from './pg-ddl.js';

export type SourceValue = string | number | bigint | Buffer | null;
export type SourceRow = SourceValue[];

export interface SqliteSource {
  readonly path: string;
  /** Migration versions the file has recorded. */
  versions(): Set<number>;
  /** Every table of the file (plain, virtual and shadow), as sqlite_master lists it. */
  tables(): SchemaObject[];
  /** Column names of `table`, generated ones included (table_xinfo). */
  columns(table: string): string[];
  /** Rows in `table`, or null when it cannot be read here (a module this build lacks). */
  count(table: string): number | null;
  /** The rows of `table` as `columns` (an implicit `rowid` may be named), in rowid order when it has one. */
  rows(table: string, columns: readonly string[], byRowid: boolean): IterableIterator<SourceRow>;
  close(): void;
}

export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * Opens the SQLite store at `path` read-only and starts the snapshot.
 * @throws StoreMissingError when there is no file at `path`.
 */
export function openSqliteSource(path: string): SqliteSource {
  if (!existsSync(path)) throw new StoreMissingError(path);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    sqliteVec.load(db);
  } catch {
    // Without sqlite-vec the vector tables cannot be counted; they are skipped either way.
  }
  db.exec('BEGIN');
  // The snapshot starts at the first read, not at BEGIN.
  db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
  return {
    path,
    versions() {
      const has = db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
        .get();
      if (has === undefined) return new Set();
      const rows = db.prepare('SELECT version FROM schema_migrations').all() as {
        version: number;
      }[];
      return new Set(rows.map((r) => r.version));
    },
    tables: () =>
      db
        .prepare(
          "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL ORDER BY name",
        )
        .all() as SchemaObject[],
    columns: (table) =>
      (db.prepare(`PRAGMA table_xinfo(${quoteIdent(table)})`).all() as { name: string }[]).map(
        (c) => c.name,
      ),
    count(table) {
      try {
        const row = db.prepare(`SELECT COUNT(*) AS n FROM ${quoteIdent(table)}`).get() as {
          n: number;
        };
        return row.n;
      } catch {
        return null;
      }
    },
    rows(table, columns, byRowid) {
      const list = columns.map(quoteIdent).join(', ');
      const order = byRowid ? ' ORDER BY rowid' : '';
      const stmt = db.prepare(`SELECT ${list} FROM ${quoteIdent(table)}${order}`);
      return stmt.safeIntegers(true).raw(true).iterate() as IterableIterator<SourceRow>;
    },
    close() {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    },
  };
}
