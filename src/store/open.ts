// Opening the configured backend: PostgreSQL when a connection URL is given, else the SQLite
// file. The one switch between backends; everything above sees the Store contract.
import { openPgStore } from './pg/pg-store.js';
import { openSqliteStore } from './sqlite.js';
import type { Store, StoreOptions } from './types.js';

export interface OpenStoreOptions extends StoreOptions {
  /** A `postgres://` or `postgresql://` URL: use PostgreSQL instead of the file. */
  url?: string | undefined;
  /** The SQLite file (used when `url` is absent). */
  path: string;
}

/** True for a connection string this build serves (PostgreSQL). */
export function isPgUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** A PostgreSQL URL with its password left out: safe to print and to hand to another process. */
export interface ShareableDbUrl {
  url: string;
  /** True when the configured URL carried a password (the other process needs PGPASSWORD). */
  passwordOmitted: boolean;
}

/** `url` without its password (see ShareableDbUrl); an unparsable URL is kept as given. */
export function shareableDbUrl(url: string): ShareableDbUrl {
  try {
    const u = new URL(url);
    if (u.password === '') return { url, passwordOmitted: false };
    u.password = '';
    return { url: u.toString(), passwordOmitted: true };
  } catch {
    return { url, passwordOmitted: false };
  }
}

/** Opens the store `options` name. @throws Error naming the URL's scheme when it is not PostgreSQL. */
export function openStore(options: OpenStoreOptions): Promise<Store> {
  const { url, path, ...rest } = options;
  if (url === undefined || url === '') return openSqliteStore(path, rest);
  if (!isPgUrl(url))
    throw new Error('CAIRN_DB_URL / --db-url must be a postgres:// or postgresql:// URL');
  return openPgStore(url, rest);
}

/** Reopens the database a store's `locator` names (a PostgreSQL URL or a SQLite path). */
export function openStoreAt(locator: string, options: StoreOptions = {}): Promise<Store> {
  return isPgUrl(locator) ? openPgStore(locator, options) : openSqliteStore(locator, options);
}
