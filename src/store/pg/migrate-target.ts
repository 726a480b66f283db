// The PostgreSQL side of migrate-store: one dedicated connection (BIGINT read exactly as BigInt,
// for the verification digests), the schema's tables and columns as the target has them, the
// batched inserts, user triggers held off during the copy and identity sequences advanced.
import pg from 'pg';

import { SEQ_TABLES, seqGenerator } from '../write-counters.js';
import { quoteIdent, type SourceRow } from './migrate-source.js';
import { redactUrl } from './pg-errors.js';
import { toParam } from './pg-store.js';

const INT8 = 20;

export interface TargetColumn {
  name: string;
  generated: boolean;
  identity: boolean;
}

/** Connects one client to `url`; BIGINT columns read as BigInt. */
export async function connectTarget(url: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8
          ? (v: string): bigint => BigInt(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`cannot connect to ${redactUrl(url)}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  client.on('error', () => undefined);
  return client;
}

/** The target's tables (the current schema's, schema_migrations aside) and their columns. */
export async function targetColumns(client: pg.ClientBase): Promise<Map<string, TargetColumn[]>> {
  const { rows } = await client.query<{
    table_name: string;
    column_name: string;
    is_generated: string;
    is_identity: string;
  }>(
    `SELECT c.table_name, c.column_name, c.is_generated, c.is_identity
     FROM information_schema.columns c JOIN information_schema.tables t
       ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
       AND c.table_name <> 'schema_migrations'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const out = new Map<string, TargetColumn[]>();
  for (const r of rows) {
    const list = out.get(r.table_name) ?? [];
    list.push({
      name: r.column_name,
      generated: r.is_generated === 'ALWAYS',
      identity: r.is_identity === 'YES',
    });
    out.set(r.table_name, list);
  }
  return out;
}

/**
 * The first of `tables` holding more rows than the migrations seed into it (`seeded`), or
 * undefined when the target is empty in that sense.
 */
export async function firstNonEmpty(
  client: pg.ClientBase,
  tables: Iterable<string>,
  seeded: ReadonlyMap<string, number>,
): Promise<string | undefined> {
  for (const table of tables) {
    const allowed = seeded.get(table) ?? 0;
    const { rows } = await client.query(`SELECT 1 FROM ${quoteIdent(table)} LIMIT ${allowed + 1}`);
    if (rows.length > allowed) return table;
  }
  return undefined;
}

/** Deletes the migrations' seed rows from `tables` (the copy brings the source's own). */
export async function clearSeeded(
  client: pg.ClientBase,
  seeded: ReadonlyMap<string, number>,
): Promise<void> {
  for (const table of seeded.keys()) await client.query(`DELETE FROM ${quoteIdent(table)}`);
}

/**
 * Switches the tables' own triggers off (`on` false) or back on, inside the caller's transaction:
 * copied rows already hold what the triggers would derive. Foreign keys stay checked.
 */
export async function userTriggers(
  client: pg.ClientBase,
  tables: Iterable<string>,
  on: boolean,
): Promise<void> {
  for (const t of tables)
    await client.query(`ALTER TABLE ${quoteIdent(t)} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
}

/** A table's foreign key onto itself (a task's parent, a document's successor). */
export interface SelfReference {
  table: string;
  constraint: string;
}

/** The target's self-referencing foreign keys that are checked row by row. */
export async function selfReferences(client: pg.ClientBase): Promise<SelfReference[]> {
  const { rows } = await client.query<SelfReference>(
    `SELECT c.conrelid::regclass::text AS table, c.conname AS constraint FROM pg_constraint c
     WHERE c.contype = 'f' AND c.conrelid = c.confrelid AND NOT c.condeferrable
       AND c.connamespace = current_schema()::regnamespace`,
  );
  return rows;
}

/**
 * Defers the checks of `refs` to the end of the transaction (`deferred` true), so a row may
 * point at one copied after it, or checks them now and makes them immediate again (false).
 */
export async function deferSelfReferences(
  client: pg.ClientBase,
  refs: readonly SelfReference[],
  deferred: boolean,
): Promise<void> {
  if (!deferred) await client.query('SET CONSTRAINTS ALL IMMEDIATE');
  const mode = deferred ? 'DEFERRABLE INITIALLY DEFERRED' : 'NOT DEFERRABLE';
  for (const r of refs)
    await client.query(
      `ALTER TABLE ${quoteIdent(r.table)} ALTER CONSTRAINT ${quoteIdent(r.constraint)} ${mode}`,
    );
}

/**
 * Moves every identity sequence past the largest id its column holds, and each insertion
 * sequence (migration 33) past the largest `seq` its table holds.
 */
export async function advanceIdentities(
  client: pg.ClientBase,
  columns: Map<string, TargetColumn[]>,
): Promise<void> {
  for (const [table, list] of columns)
    for (const c of list.filter((x) => x.identity)) {
      const col = quoteIdent(c.name);
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX(${col}), 0) + 1, false)
         FROM ${quoteIdent(table)}`,
        [quoteIdent(table), c.name],
      );
    }
  for (const table of SEQ_TABLES)
    await client.query(
      `SELECT setval($1, COALESCE(MAX(seq), 0) + 1, false) FROM ${quoteIdent(table)}`,
      [seqGenerator(table)],
    );
}

/** Parameters per INSERT stay well under PostgreSQL's 65,535. */
const MAX_PARAMS = 30_000;

/** Rows per INSERT for `columns` columns. */
export const batchRows = (columns: number): number =>
  Math.max(1, Math.min(1_000, Math.floor(MAX_PARAMS / Math.max(1, columns))));

/** Inserts `rows` (values in `columns` order) into `table` with one statement. */
export async function insertRows(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  rows: readonly SourceRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const marks = row.map((v) => {
      params.push(toParam(v));
      return `$${params.length}`;
    });
    return `(${marks.join(', ')})`;
  });
  await client.query(
    `INSERT INTO ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) VALUES ${tuples.join(', ')}`,
    params,
  );
}
