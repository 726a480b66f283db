// Named operations on the project and entity resource tables (migration 28): insert in creation
// order, read by id, list and count by column equality, update and delete one row. Portable SQL;
// table and column names come from the domain's registry and are checked to be identifiers.
import type { Queryable, SqlValue } from './types.js';

/** One resource row as stored: the common columns and the resource's own. */
export type EntityRow = Record<string, SqlValue> & {
  id: string;
  seq: number;
  created_at: number;
  updated_at: number;
};

/** Column equality, ANDed; a null value matches NULL. */
export type EntityWhere = Readonly<Record<string, SqlValue>>;

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`not a table or column name: ${name}`);
  return name;
}

function whereSql(where: EntityWhere): { sql: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  for (const [column, value] of Object.entries(where)) {
    if (value === null) clauses.push(`${ident(column)} IS NULL`);
    else {
      clauses.push(`${ident(column)} = ?`);
      params.push(value);
    }
  }
  return { sql: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, params };
}

/** Inserts `row` (which has no seq) as the table's newest row. */
export async function insertEntityRow(
  db: Queryable,
  table: string,
  row: Readonly<Record<string, SqlValue>>,
): Promise<void> {
  const columns = Object.keys(row).map(ident);
  const t = ident(table);
  await db.run(
    `INSERT INTO ${t} (${[...columns, 'seq'].join(', ')})
     SELECT ${columns.map(() => '?').join(', ')}, COALESCE(MAX(seq), 0) + 1 FROM ${t}`,
    Object.values(row),
  );
}

export async function entityRowById(
  db: Queryable,
  table: string,
  id: string,
): Promise<EntityRow | undefined> {
  return db.get<EntityRow>(`SELECT * FROM ${ident(table)} WHERE id = ?`, [id]);
}

/** Rows matching `where`, in creation order, `limit` from `offset`. */
export async function entityRowsWhere(
  db: Queryable,
  table: string,
  where: EntityWhere,
  page: { limit: number; offset?: number },
): Promise<EntityRow[]> {
  const w = whereSql(where);
  return db.all<EntityRow>(
    `SELECT * FROM ${ident(table)} ${w.sql} ORDER BY seq ASC LIMIT ? OFFSET ?`,
    [...w.params, page.limit, page.offset ?? 0],
  );
}

export async function countEntityRows(
  db: Queryable,
  table: string,
  where: EntityWhere,
): Promise<number> {
  const w = whereSql(where);
  const row = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM ${ident(table)} ${w.sql}`,
    w.params,
  );
  return row?.n ?? 0;
}

/** The largest value of an integer column among rows matching `where` (0 when none). */
export async function maxEntityColumn(
  db: Queryable,
  table: string,
  column: string,
  where: EntityWhere,
): Promise<number> {
  const w = whereSql(where);
  const row = await db.get<{ m: number | null }>(
    `SELECT MAX(${ident(column)}) AS m FROM ${ident(table)} ${w.sql}`,
    w.params,
  );
  return row?.m ?? 0;
}

/** Sets the given columns of one row; false when there is no such row. */
export async function updateEntityRow(
  db: Queryable,
  table: string,
  id: string,
  set: Readonly<Record<string, SqlValue>>,
): Promise<boolean> {
  const entries = Object.entries(set);
  if (entries.length === 0) return (await entityRowById(db, table, id)) !== undefined;
  const done = await db.run(
    `UPDATE ${ident(table)} SET ${entries.map(([c]) => `${ident(c)} = ?`).join(', ')} WHERE id = ?`,
    [...entries.map(([, v]) => v), id],
  );
  return done.changes > 0;
}

export async function deleteEntityRow(db: Queryable, table: string, id: string): Promise<boolean> {
  const done = await db.run(`DELETE FROM ${ident(table)} WHERE id = ?`, [id]);
  return done.changes > 0;
}

/** Whether a live (not dropped) board task has this id. */
export async function liveBoardTask(
  db: Queryable,
  id: string,
): Promise<{ id: string; title: string; status: string } | undefined> {
  return db.get('SELECT id, title, status FROM tasks WHERE id = ? AND deleted_at IS NULL', [id]);
}
