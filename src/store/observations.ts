// Named operations over observation memory (migration 25): an observation is a memory_items row
// of kind 'observation' plus its memory_observations row. The domain (src/activity/observations)
// builds filters and rows through these functions and never writes this SQL itself; the filter
// is a SqlFilter over `memory_items m`, so memory's full-text and vector search take it as is.
import type { SqlFilter } from './memory-index.js';
import type { Dialect, Queryable, SqlValue } from './types.js';

/** One observation as stored: its memory item's columns and its observation columns. */
export interface ObservationRow {
  rowid: number;
  id: string;
  title: string;
  content: string;
  tags: string;
  meta: string;
  content_hash: string;
  created_at: number;
  resource: string;
  session_id: string | null;
  project_id: string | null;
  repo_id: string | null;
  obs_key: string | null;
  provenance: string;
  observed_at: number;
}

/** What a new observation stores (the id and times chosen by the domain). */
export type NewObservationRow = Omit<ObservationRow, 'rowid'>;

/** What narrows a set of observations; every field given must hold. */
export interface ObservationSqlFilter {
  resources?: readonly string[] | undefined;
  /** Every one of these tags. */
  tags?: readonly string[] | undefined;
  sessionId?: string | undefined;
  projectId?: string | undefined;
  repoId?: string | undefined;
  /** Observed at or after / at or before (ms). */
  from?: number | undefined;
  to?: number | undefined;
}

const COLUMNS = `m.rowid AS rowid, m.id AS id, m.title AS title, m.content AS content,
  m.tags AS tags, m.meta AS meta, m.content_hash AS content_hash, m.created_at AS created_at,
  o.resource AS resource, o.session_id AS session_id, o.project_id AS project_id,
  o.repo_id AS repo_id, o.obs_key AS obs_key, o.provenance AS provenance,
  o.observed_at AS observed_at`;
const FROM = 'FROM memory_items m JOIN memory_observations o ON o.item_rowid = m.rowid';
const LIVE = "m.kind = 'observation' AND m.deleted_at IS NULL AND m.lifecycle = 'active'";

const marks = (n: number): string => Array.from({ length: n }, () => '?').join(',');

/** `m.tags` holds every tag listed (tags are a JSON array, read per dialect). */
export function tagsFilter(dialect: Dialect, tags: readonly string[]): SqlFilter {
  if (tags.length === 0) return { sql: '1 = 1', params: [] };
  const each =
    dialect === 'sqlite' ? 'json_each(m.tags)' : 'jsonb_array_elements_text(m.tags::jsonb)';
  const sql = tags.map(() => `EXISTS (SELECT 1 FROM ${each} t WHERE t.value = ?)`).join(' AND ');
  return { sql, params: [...tags] };
}

/**
 * Live observations passing `f`, as a filter over `memory_items m` (the columns of
 * memory_observations are reached through a correlated subquery, so full-text and vector
 * search, which select from `memory_items m`, can use it unchanged).
 */
export function observationFilter(dialect: Dialect, f: ObservationSqlFilter = {}): SqlFilter {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, ...values: SqlValue[]) => {
    parts.push(sql);
    params.push(...values);
  };
  if (f.resources !== undefined)
    add(`o.resource IN (${marks(f.resources.length)})`, ...f.resources);
  if (f.sessionId !== undefined) add('o.session_id = ?', f.sessionId);
  if (f.projectId !== undefined) add('o.project_id = ?', f.projectId);
  if (f.repoId !== undefined) add('o.repo_id = ?', f.repoId);
  if (f.from !== undefined) add('o.observed_at >= ?', f.from);
  if (f.to !== undefined) add('o.observed_at <= ?', f.to);
  const inner = parts.length === 0 ? '' : ` AND ${parts.join(' AND ')}`;
  const tags = tagsFilter(dialect, f.tags ?? []);
  return {
    sql: `${LIVE} AND EXISTS (SELECT 1 FROM memory_observations o WHERE o.item_rowid = m.rowid${inner}) AND (${tags.sql})`,
    params: [...params, ...tags.params],
  };
}

/** Either filter (facts or observations), for one search over both. */
export function eitherFilter(a: SqlFilter, b: SqlFilter): SqlFilter {
  return { sql: `((${a.sql}) OR (${b.sql}))`, params: [...a.params, ...b.params] };
}

/** Both filters (e.g. visibility and tags). */
export function bothFilters(a: SqlFilter, b: SqlFilter): SqlFilter {
  return { sql: `(${a.sql}) AND (${b.sql})`, params: [...a.params, ...b.params] };
}

/** Inserts one observation (its memory item, then its observation row); returns it stored. */
export async function insertObservation(
  tx: Queryable,
  row: NewObservationRow,
): Promise<ObservationRow> {
  await tx.run(
    `INSERT INTO memory_items (id, kind, title, content, tags, content_hash, meta, created_at, updated_at)
     VALUES (?, 'observation', ?, ?, ?, ?, ?, ?, ?)`,
    [
      row.id,
      row.title,
      row.content,
      row.tags,
      row.content_hash,
      row.meta,
      row.created_at,
      row.created_at,
    ],
  );
  await tx.run(
    `INSERT INTO memory_observations
       (item_rowid, resource, session_id, project_id, repo_id, obs_key, provenance, observed_at)
     SELECT rowid, ?, ?, ?, ?, ?, ?, ? FROM memory_items WHERE id = ?`,
    [
      row.resource,
      row.session_id,
      row.project_id,
      row.repo_id,
      row.obs_key,
      row.provenance,
      row.observed_at,
      row.id,
    ],
  );
  const [saved] = await observationsByIds(tx, [row.id]);
  if (saved === undefined) throw new Error('inserted observation vanished');
  return saved;
}

/** The live observation stored under `key`, if any (the newest, should there be several). */
export async function observationByKey(
  db: Queryable,
  key: string,
): Promise<ObservationRow | undefined> {
  return db.get<ObservationRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE ${LIVE} AND o.obs_key = ? ORDER BY o.observed_at DESC, m.rowid DESC LIMIT 1`,
    [key],
  );
}

/** Marks an observation superseded (a newer one with the same key replaced it). */
export async function supersedeObservation(tx: Queryable, rowid: number, now: number) {
  await tx.run("UPDATE memory_items SET lifecycle = 'superseded', updated_at = ? WHERE rowid = ?", [
    now,
    rowid,
  ]);
}

/** Live observations with these ids (any order; missing ids are simply absent). */
export async function observationsByIds(
  db: Queryable,
  ids: readonly string[],
): Promise<ObservationRow[]> {
  if (ids.length === 0) return [];
  return db.all<ObservationRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE ${LIVE} AND m.id IN (${marks(ids.length)})`,
    ids,
  );
}

/** Live observations with these rowids (any order). */
export async function observationsByRowids(
  db: Queryable,
  rowids: readonly number[],
): Promise<ObservationRow[]> {
  if (rowids.length === 0) return [];
  return db.all<ObservationRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE ${LIVE} AND m.rowid IN (${marks(rowids.length)})`,
    rowids,
  );
}

/** Observations passing `filter`, newest first (or oldest first), at most `limit`. */
export async function listObservations(
  db: Queryable,
  filter: SqlFilter,
  limit: number,
  order: 'newest' | 'oldest' = 'newest',
): Promise<ObservationRow[]> {
  const dir = order === 'newest' ? 'DESC' : 'ASC';
  return db.all<ObservationRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE ${filter.sql} ORDER BY o.observed_at ${dir}, m.rowid ${dir} LIMIT ?`,
    [...filter.params, limit],
  );
}

/**
 * One session's live observations in time order (oldest first), at most `limit`, and how many
 * it has in all. Reached through memory_observations' session index, not a scan of memory items.
 */
export async function observationsOfSession(
  db: Queryable,
  sessionId: string,
  limit: number,
): Promise<{ rows: ObservationRow[]; total: number }> {
  // SQLite's planner is told to use the session index; PostgreSQL's picks it by itself.
  const hint = db.dialect === 'sqlite' ? 'INDEXED BY memory_observations_session' : '';
  const from = `FROM memory_observations o ${hint}
    JOIN memory_items m ON m.rowid = o.item_rowid WHERE o.session_id = ? AND ${LIVE}`;
  const rows = await db.all<ObservationRow>(
    `SELECT ${COLUMNS} ${from} ORDER BY o.observed_at, m.rowid LIMIT ?`,
    [sessionId, limit],
  );
  const count = await db.get<{ n: number }>(`SELECT COUNT(*) AS n ${from}`, [sessionId]);
  return { rows, total: count?.n ?? 0 };
}

/** How many memory items pass `filter` (observations, facts, or both). */
export async function countMemoryItems(db: Queryable, filter: SqlFilter): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM memory_items m WHERE ${filter.sql}`,
    filter.params,
  );
  return row?.n ?? 0;
}

/**
 * The `limit` observations passing `filter` just before (`side` 'before', nearest first) or
 * just after (`side` 'after', nearest first) the anchor, in (observed_at, rowid) order.
 */
export async function observationsBeside(
  db: Queryable,
  filter: SqlFilter,
  anchor: { observedAt: number; rowid: number },
  side: 'before' | 'after',
  limit: number,
): Promise<ObservationRow[]> {
  if (limit < 1) return [];
  const cmp = side === 'before' ? '<' : '>';
  const dir = side === 'before' ? 'DESC' : 'ASC';
  return db.all<ObservationRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE ${filter.sql}
       AND (o.observed_at ${cmp} ? OR (o.observed_at = ? AND m.rowid ${cmp} ?))
     ORDER BY o.observed_at ${dir}, m.rowid ${dir} LIMIT ?`,
    [...filter.params, anchor.observedAt, anchor.observedAt, anchor.rowid, limit],
  );
}
