// The verification pass of migrate-store: per table, the row count and a content digest over
// the same columns on both sides. The digest is a sum of per-row SHA-256 prefixes (mod 2^128),
// so it needs no common row order (SQLite and PostgreSQL collate text keys differently).
import { createHash } from 'node:crypto';

import type pg from 'pg';

import { quoteIdent, type SourceRow, type SourceValue } from './migrate-source.js';

export interface TableDigest {
  rows: number;
  digest: string;
}

export interface TableCheck {
  table: string;
  source: TableDigest;
  target: TableDigest;
  ok: boolean;
}

const MOD = 1n << 128n;

/**
 * One value's canonical text. Integral numbers print as integers on both sides (SQLite REAL 3.0
 * and a PostgreSQL BIGINT 3 agree); U+0000 counts as U+FFFD, as PostgreSQL text stores it.
 */
function canonical(v: unknown): string {
  if (v === null || v === undefined) return 'n';
  if (typeof v === 'bigint') return `i${v.toString()}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `i${BigInt(v).toString()}` : `r${v}`;
  if (typeof v === 'string') return `s${v.replaceAll('\u0000', '\uFFFD')}`;
  if (v instanceof Uint8Array) return `b${Buffer.from(v).toString('hex')}`;
  return `?${String(v)}`;
}

/** Accumulates rows into a count and an order-independent digest. */
export class RowDigest {
  #rows = 0;
  #sum = 0n;

  add(row: readonly (SourceValue | unknown)[]): void {
    const hash = createHash('sha256');
    for (const v of row) hash.update(canonical(v)).update('\u001f');
    this.#sum = (this.#sum + BigInt(`0x${hash.digest('hex').slice(0, 32)}`)) % MOD;
    this.#rows += 1;
  }

  result(): TableDigest {
    return { rows: this.#rows, digest: this.#sum.toString(16).padStart(32, '0') };
  }
}

/** The digest of source rows. */
export function digestRows(rows: Iterable<SourceRow>): TableDigest {
  const d = new RowDigest();
  for (const row of rows) d.add(row);
  return d.result();
}

/** Rows fetched per round trip while digesting a PostgreSQL table. */
const FETCH = 2_000;

/**
 * The digest of `columns` of `table` on PostgreSQL, read through a cursor (bounded memory) in
 * the caller's transaction.
 */
export async function digestTarget(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
): Promise<TableDigest> {
  const d = new RowDigest();
  await client.query(
    `DECLARE cairn_verify NO SCROLL CURSOR FOR SELECT ${columns.map(quoteIdent).join(', ')} FROM ${quoteIdent(table)}`,
  );
  try {
    for (;;) {
      const { rows } = await client.query<unknown[]>({
        text: `FETCH ${FETCH} FROM cairn_verify`,
        rowMode: 'array',
      });
      for (const row of rows) d.add(row);
      if (rows.length < FETCH) break;
    }
  } finally {
    await client.query('CLOSE cairn_verify').catch(() => undefined);
  }
  return d.result();
}
