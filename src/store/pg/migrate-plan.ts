// What migrate-store copies: every table of the SQLite store in foreign-key order, except the
// SQLite-only search structures (FTS5 and sqlite-vec tables with their shadow tables) and the
// vector bookkeeping rows, whose vectors the embedding backlogs rebuild on PostgreSQL.
import * as sqliteVec from 'sqlite-vec';

import type { Migration } from '../migration-types.js';
import { applyMigrations, openDriver } from '../sqlite-open.js';
import { quoteIdent, type SqliteSource } from './migrate-source.js';
import { byReferences, type SchemaObject, translatable } from './pg-ddl.js';

export interface PlannedTable {
  table: string;
  /** The SQLite columns (generated ones included, an implicit rowid not). */
  columns: string[];
  /** A rowid table: rows are read in rowid order and SQLite's rowid is kept. */
  rowidTable: boolean;
  rows: number;
}

export interface LeftTable {
  table: string;
  /** Rows in the source, null when this build cannot read the table (no sqlite-vec). */
  rows: number | null;
  reason: string;
}

export interface MigratePlan {
  copy: PlannedTable[];
  /** SQLite-only tables that are not copied. */
  skipped: LeftTable[];
  /** Vector bookkeeping not copied: the items they cover are embedded again on PostgreSQL. */
  reembed: LeftTable[];
}

/** Which vectors each bookkeeping table records, and who rebuilds them on PostgreSQL. */
export const VECTOR_BOOKKEEPING: Readonly<Record<string, string>> = {
  memory_vectors: 'memory item vectors: the memory embedding backlog rebuilds them',
  vault_vectors: 'vault fragment vectors: the vault embedding backlog rebuilds them',
  code_vectors: 'code chunk vectors: the next code search or index run embeds them again',
};

const virtualReason = (sql: string): string =>
  /USING\s+fts5/i.test(sql)
    ? 'FTS5 full-text index (PostgreSQL ranks with the copied postings tables)'
    : /USING\s+vec0/i.test(sql)
      ? 'sqlite-vec vectors (re-embedded on PostgreSQL, see the vector bookkeeping)'
      : 'SQLite virtual table';

/** The plan for `source`'s tables (reads counts, writes nothing). */
export function planCopy(source: SqliteSource): MigratePlan {
  const all = source.tables();
  const virtuals = all.filter((t) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(t.sql));
  const shadowOf = (name: string): SchemaObject | undefined =>
    virtuals.find((v) => name !== v.name && name.startsWith(`${v.name}_`));
  const plan: MigratePlan = { copy: [], skipped: [], reembed: [] };
  const copied: SchemaObject[] = [];
  for (const t of all) {
    const rows = source.count(t.name);
    const owner = shadowOf(t.name);
    if (virtuals.includes(t))
      plan.skipped.push({ table: t.name, rows, reason: virtualReason(t.sql) });
    else if (owner !== undefined)
      plan.skipped.push({ table: t.name, rows, reason: `internal table of ${owner.name}` });
    else if (VECTOR_BOOKKEEPING[t.name] !== undefined)
      plan.reembed.push({ table: t.name, rows, reason: VECTOR_BOOKKEEPING[t.name] ?? '' });
    else if (translatable(t)) copied.push(t);
  }
  for (const t of byReferences(copied)) {
    plan.copy.push({
      table: t.name,
      columns: source.columns(t.name),
      rowidTable: !/\)\s*WITHOUT\s+ROWID\s*$/i.test(t.sql),
      rows: source.count(t.name) ?? 0,
    });
  }
  return plan;
}

/**
 * Rows the migrations themselves insert (default channels, postings statistics), per table: a
 * freshly migrated in-memory SQLite database counted. A target holding no more than these
 * counts is still empty; the copy replaces them with the source's rows.
 */
export function seededRows(migrations: readonly Migration[]): Map<string, number> {
  const db = openDriver(':memory:', false);
  try {
    sqliteVec.load(db);
    applyMigrations(db, migrations);
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'",
      )
      .all() as { name: string }[];
    const out = new Map<string, number>();
    for (const { name } of tables) {
      if (name === 'schema_migrations' || name.startsWith('sqlite_')) continue;
      const row = db.prepare(`SELECT COUNT(*) AS n FROM ${quoteIdent(name)}`).get() as {
        n: number;
      };
      if (row.n > 0) out.set(name, row.n);
    }
    return out;
  } finally {
    db.close();
  }
}
