// Which database the reading commands (approvals, audit, agents) open, and opening it without
// ever creating one: --db, else CAIRN_DB_PATH, else the running server's (serve.json), else
// $CAIRN_HOME/cairn.db. A missing file is an error, not an empty database.
import { join } from 'node:path';

import { type Core, createCore } from '../core/index.js';
import { cairnHome, isPgUrl, resolveDbPath, StoreMissingError } from '../store/index.js';
import { findServer, noServerReason, type ServeRecord } from './serve-record.js';

export interface ReaderDb {
  path: string;
  /** Why this path, when it was neither given nor the running server's (for messages). */
  assumed?: string;
}

/** Resolves the database a reading command uses (see the file comment for the order). */
export function readerDbPath(explicit: string | undefined, env = process.env): ReaderDb {
  if (explicit !== undefined && explicit !== '') return { path: explicit };
  const fromEnv = env['CAIRN_DB_PATH'];
  if (fromEnv !== undefined && fromEnv !== '') return { path: fromEnv };
  const home = cairnHome(env);
  const lookup = findServer(home);
  if (lookup.state === 'running') return { path: lookup.record.db };
  return { path: join(home, 'cairn.db'), assumed: noServerReason(lookup) };
}

/**
 * Opens the core over an existing database, without an embedder.
 * @throws Error naming the path (and why it was chosen) when there is no database there.
 */
export async function openReaderCore(explicit: string | undefined): Promise<Core> {
  const db = readerDbPath(explicit);
  let core: Core;
  try {
    // A running server on PostgreSQL records its URL (password left out) as its database.
    const dbUrl = isPgUrl(db.path) ? { dbUrl: db.path } : {};
    core = await createCore({ dbPath: db.path, embedder: null, mustExist: true, ...dbUrl });
  } catch (err) {
    if (!(err instanceof StoreMissingError)) throw err;
    const why = db.assumed === undefined ? '' : ` (${db.assumed})`;
    throw new Error(
      `no database at ${db.path}${why}: nothing to read; cairn serve or a cairn mcp server creates it, --db PATH names another`,
      { cause: err },
    );
  }
  if (db.assumed !== undefined) process.stderr.write(`cairn: ${db.assumed}; reading ${db.path}\n`);
  return core;
}

/** The database a command names: a SQLite file, or (`url` set) a PostgreSQL database. */
export interface ConfigDb {
  dbPath: string;
  /** The PostgreSQL URL as configured (its password included), when not SQLite. */
  url?: string;
}

/**
 * The database a `cairn config` stdio snippet (and `import`, `index`) names: CAIRN_DB_URL (which
 * wins over a file everywhere), else --db, else CAIRN_DB_PATH, else the running server's (so
 * both share one board; a URL when it serves PostgreSQL), else $CAIRN_HOME/cairn.db.
 */
export function configDb(
  explicit: string | undefined,
  running: ServeRecord | undefined,
  env = process.env,
): ConfigDb {
  const url = env['CAIRN_DB_URL'];
  const fromEnv = env['CAIRN_DB_PATH'];
  const unset = (v: string | undefined): boolean => v === undefined || v === '';
  const dbPath =
    unset(explicit) && unset(fromEnv)
      ? (running?.db ?? resolveDbPath(undefined, env))
      : resolveDbPath(explicit, env);
  if (url !== undefined && url !== '') return { dbPath, url };
  return isPgUrl(dbPath) ? { dbPath, url: dbPath } : { dbPath };
}
