// migrate-store: copies a SQLite store into an empty PostgreSQL database, all or nothing (one
// PostgreSQL transaction), then verifies per table (row count and content digest) against the
// same SQLite snapshot. A dry run reads both sides and writes nothing.
import type pg from 'pg';

import { DomainError } from '../../shared/errors.js';
import { MIGRATIONS } from '../migrations.js';
import {
  type LeftTable,
  type MigratePlan,
  planCopy,
  type PlannedTable,
  seededRows,
} from './migrate-plan.js';
import { openSqliteSource, type SqliteSource } from './migrate-source.js';
import {
  advanceIdentities,
  batchRows,
  clearSeeded,
  connectTarget,
  deferSelfReferences,
  firstNonEmpty,
  insertRows,
  selfReferences,
  type TargetColumn,
  targetColumns,
  userTriggers,
} from './migrate-target.js';
import { digestRows, digestTarget, type TableCheck } from './migrate-verify.js';
import { redactUrl } from './pg-errors.js';
import { migratePg } from './pg-migrate.js';

/** The copy cannot go ahead: the stores' schemas differ, or the target already holds data. */
export class MigrateStoreError extends DomainError {
  constructor(code: 'schema_mismatch' | 'target_not_empty', message: string) {
    super(code, message);
  }
}

export interface MigrateStoreOptions {
  /** The SQLite file (opened read-only, never created). */
  from: string;
  /** The PostgreSQL URL. */
  to: string;
  dryRun?: boolean;
  /** Rows per INSERT at most (default: up to 1,000, fewer for wide tables). */
  batchRows?: number;
  /** Called after each table is copied (progress). */
  onTable?: (table: string, rows: number) => void;
}

export interface MigrateStoreReport {
  from: string;
  to: string;
  dryRun: boolean;
  /** The newest migration the SQLite store has. */
  schemaVersion: number;
  /** Tables copied (or, in a dry run, to copy) with their row counts, in copy order. */
  tables: { table: string; rows: number }[];
  skipped: LeftTable[];
  reembed: LeftTable[];
  /** Dry run: the first target table holding rows (the copy would be refused), if any. */
  targetHolds?: string;
  /** Per-table comparison after the copy (empty in a dry run). */
  verification: TableCheck[];
  /** The copy committed and every table verified. */
  ok: boolean;
}

/** `migration 7` or `12 migrations (1…12)`. */
const listed = (versions: readonly number[]): string =>
  versions.length === 1
    ? `migration ${versions[0]}`
    : `${versions.length} migrations (${versions[0]}…${versions[versions.length - 1]})`;

/** Refuses a source whose migrations differ from this build's. */
function checkVersions(source: SqliteSource): number {
  const have = source.versions();
  const known = new Set(MIGRATIONS.map((m) => m.version));
  const missing = [...known].filter((v) => !have.has(v)).sort((a, b) => a - b);
  const unknown = [...have].filter((v) => !known.has(v)).sort((a, b) => a - b);
  if (unknown.length > 0)
    throw new MigrateStoreError(
      'schema_mismatch',
      `${source.path} has ${listed(unknown)} this cairn does not know: run migrate-store with the cairn that wrote it`,
    );
  if (missing.length > 0)
    throw new MigrateStoreError(
      'schema_mismatch',
      `${source.path} lacks ${listed(missing)}: open it once with this cairn (e.g. cairn agents list --db ${source.path}) to bring it up to date, then migrate`,
    );
  return Math.max(0, ...have);
}

interface TableCopy {
  planned: PlannedTable;
  /** Columns read from SQLite and inserted into PostgreSQL, in order. */
  insert: string[];
  /** Columns compared by the verification (the inserted ones and generated ones). */
  verify: string[];
}

/** Matches each planned table to the target's columns. */
function matchColumns(plan: MigratePlan, target: Map<string, TargetColumn[]>): TableCopy[] {
  return plan.copy.map((planned) => {
    const cols = target.get(planned.table);
    if (cols === undefined)
      throw new MigrateStoreError(
        'schema_mismatch',
        `the PostgreSQL schema has no table ${planned.table}`,
      );
    const byName = new Map(cols.map((c) => [c.name, c]));
    const missing = planned.columns.filter((c) => !byName.has(c));
    if (missing.length > 0)
      throw new MigrateStoreError(
        'schema_mismatch',
        `the PostgreSQL table ${planned.table} has no column ${missing.join(', ')}`,
      );
    const source = [...planned.columns];
    if (planned.rowidTable && byName.has('rowid') && !source.includes('rowid'))
      source.push('rowid');
    return {
      planned,
      insert: source.filter((c) => byName.get(c)?.generated !== true),
      verify: source,
    };
  });
}

async function copyAll(
  client: pg.ClientBase,
  source: SqliteSource,
  copies: readonly TableCopy[],
  options: MigrateStoreOptions,
): Promise<void> {
  for (const { planned, insert } of copies) {
    const size = Math.max(1, Math.min(options.batchRows ?? Infinity, batchRows(insert.length)));
    let batch = [];
    for (const row of source.rows(planned.table, insert, planned.rowidTable)) {
      batch.push(row);
      if (batch.length < size) continue;
      await insertRows(client, planned.table, insert, batch);
      batch = [];
    }
    await insertRows(client, planned.table, insert, batch);
    options.onTable?.(planned.table, planned.rows);
  }
}

/** The copy in one transaction: refused when the target holds rows, else every table. */
async function copyInto(
  client: pg.ClientBase,
  source: SqliteSource,
  copies: readonly TableCopy[],
  target: Map<string, TargetColumn[]>,
  options: MigrateStoreOptions,
): Promise<void> {
  await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
  try {
    const seeded = seedOf(target);
    const holds = await firstNonEmpty(client, target.keys(), seeded);
    if (holds !== undefined)
      throw new MigrateStoreError(
        'target_not_empty',
        `the target database is not empty (table ${holds} holds rows): migrate-store copies only into an empty database`,
      );
    const tables = copies.map((c) => c.planned.table);
    const selfRefs = await selfReferences(client);
    await userTriggers(client, tables, false);
    await deferSelfReferences(client, selfRefs, true);
    await clearSeeded(client, seeded);
    await copyAll(client, source, copies, options);
    await deferSelfReferences(client, selfRefs, false);
    await userTriggers(client, tables, true);
    await advanceIdentities(client, target);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function verify(
  client: pg.ClientBase,
  source: SqliteSource,
  copies: readonly TableCopy[],
): Promise<TableCheck[]> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const checks: TableCheck[] = [];
    for (const { planned, verify: columns } of copies) {
      const s = digestRows(source.rows(planned.table, columns, false));
      const t = await digestTarget(client, planned.table, columns);
      checks.push({
        table: planned.table,
        source: s,
        target: t,
        ok: s.rows === t.rows && s.digest === t.digest,
      });
    }
    return checks;
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}

/** The tables a dry run finds: whether the target exists with rows (reads only). */
async function dryRunTarget(client: pg.ClientBase): Promise<string | undefined> {
  const target = await targetColumns(client);
  return firstNonEmpty(client, target.keys(), seedOf(target));
}

/** The migrations' seed rows, for the tables the target has. */
function seedOf(target: Map<string, TargetColumn[]>): Map<string, number> {
  return new Map([...seededRows(MIGRATIONS)].filter(([table]) => target.has(table)));
}

/**
 * Copies the SQLite store `options.from` into the PostgreSQL database `options.to` (migrated
 * first) and verifies it; with `dryRun`, only plans and counts.
 * @throws MigrateStoreError when the schemas differ or the target holds rows (nothing written);
 *   StoreMissingError when there is no SQLite file; driver errors mid-copy (rolled back).
 */
export async function migrateSqliteToPg(options: MigrateStoreOptions): Promise<MigrateStoreReport> {
  const source = openSqliteSource(options.from);
  try {
    const schemaVersion = checkVersions(source);
    const plan = planCopy(source);
    const client = await connectTarget(options.to);
    try {
      const report: MigrateStoreReport = {
        from: options.from,
        to: redactUrl(options.to),
        dryRun: options.dryRun === true,
        schemaVersion,
        tables: plan.copy.map((t) => ({ table: t.table, rows: t.rows })),
        skipped: plan.skipped,
        reembed: plan.reembed,
        verification: [],
        ok: false,
      };
      if (options.dryRun === true) {
        const holds = await dryRunTarget(client);
        return { ...report, ...(holds === undefined ? {} : { targetHolds: holds }) };
      }
      await migratePg(client, MIGRATIONS);
      const target = await targetColumns(client);
      const copies = matchColumns(plan, target);
      await copyInto(client, source, copies, target, options);
      const verification = await verify(client, source, copies);
      return { ...report, verification, ok: verification.every((c) => c.ok) };
    } finally {
      await client.end().catch(() => undefined);
    }
  } finally {
    source.close();
  }
}
