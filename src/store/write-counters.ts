// Named operations for hot writes that must not read a range (issue 16): the next insertion
// sequence of tasks and comments, the row-lock clause of a claim candidate and of a row read
// before it is changed. SQLite's single writer makes MAX + 1 safe; PostgreSQL takes a sequence
// (gaps allowed: it only orders ties).

import type { Queryable, WriteOptions } from './types.js';

/** The options of a write correct under row locks alone (see WriteLocking). */
export const ROW_LOCKS: WriteOptions = { locking: 'rows' };

/** The tables with an insertion `seq` (migration 32). */
export const SEQ_TABLES = ['tasks', 'task_comments'] as const;
export type SeqTable = (typeof SEQ_TABLES)[number];

/** The PostgreSQL sequence that numbers `table`'s inserts (migration 33). */
export const seqGenerator = (table: SeqTable): string => `${table}_seq_gen`;

/**
 * The `seq` of the next row inserted into `table`, inside the caller's write transaction:
 * increasing in insertion order, unique, not necessarily gap-free (PostgreSQL: a sequence,
 * so concurrent inserts never conflict on it).
 */
export async function nextInsertionSeq(tx: Queryable, table: SeqTable): Promise<number> {
  const sql =
    tx.dialect === 'postgres'
      ? `SELECT nextval('${seqGenerator(table)}') AS n`
      : `SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM ${table}`;
  const row = await tx.get<{ n: number }>(sql);
  if (row === undefined) throw new Error(`no insertion sequence for ${table}`);
  return Number(row.n);
}

/**
 * The clause that ends a `SELECT … FROM <table> <alias> … LIMIT n` picking rows to claim:
 * on PostgreSQL it locks the rows it returns and skips rows another transaction holds locked
 * (so concurrent claimers pick different candidates); on SQLite, nothing (one writer).
 */
export function skipLockedClause(q: Queryable, alias: string): string {
  return q.dialect === 'postgres' ? ` FOR UPDATE OF ${alias} SKIP LOCKED` : '';
}

/**
 * The clause that ends a `SELECT … FROM <table> WHERE <key> = ?` reading the one row a 'rows'
 * write is about to change: on PostgreSQL it takes the row's lock first (waiting for a
 * concurrent writer, then reading its committed version), so checks made on what it returns
 * hold until commit; on SQLite, nothing (one writer).
 */
export function rowLockClause(q: Queryable): string {
  return q.dialect === 'postgres' ? ' FOR UPDATE' : '';
}
