// The database's collation decides how PostgreSQL orders and compares text. SQLite compares
// text byte by byte (the "C" collation): under any other collation, lists ordered by a name or
// a path, and cursors that compare text, come out in a different order than on SQLite.
import type pg from 'pg';

/** Collations that order text byte by byte, as SQLite does. */
const BYTEWISE = new Set(['C', 'POSIX', 'C.UTF-8', 'C.utf8', 'ucs_basic']);

/** A database's collation: libc's LC_COLLATE, or the ICU locale when ICU provides it. */
export interface DbCollation {
  collate: string;
  icuLocale: string | null;
}

/** The warning for a database's collation, or undefined when it orders text as SQLite. */
export function collationWarning({ collate: libc, icuLocale }: DbCollation): string | undefined {
  // ICU collations are linguistic whatever the locale (the root locale too).
  const collate = icuLocale === null ? libc : `ICU ${icuLocale}`;
  if (icuLocale === null && BYTEWISE.has(libc)) return undefined;
  return (
    `the database's collation is ${JSON.stringify(collate)}: text (names, paths, keys) sorts ` +
    'by that locale, not byte by byte as on SQLite, so ordered lists may differ between the ' +
    'backends; create the database with LC_COLLATE C ' +
    '(createdb --locale=C --template=template0) for the same order'
  );
}

/** The columns of pg_database that say how text is ordered (their names vary by version). */
interface CollationRow {
  datcollate: string;
  /** PostgreSQL 15+: 'c' libc, 'i' ICU, 'b' builtin (17+, code point order). */
  datlocprovider?: string;
  /** The ICU locale: `daticulocale` in 15 and 16, `datlocale` from 17. */
  daticulocale?: string | null;
  datlocale?: string | null;
}

/** Reads the current database's collation and returns the warning it calls for, if any. */
export async function checkCollation(client: pg.PoolClient): Promise<string | undefined> {
  // SELECT *: the locale columns were renamed between versions (PGlite is 17, Debian 15).
  const row = await client.query<CollationRow>(
    'SELECT * FROM pg_database WHERE datname = current_database()',
  );
  const db = row.rows[0];
  if (db === undefined) return undefined;
  const icuLocale =
    db.datlocprovider === 'i' ? (db.daticulocale ?? db.datlocale ?? 'unknown') : null;
  return collationWarning({ collate: db.datcollate, icuLocale });
}
