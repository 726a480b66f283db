// Where Cairn keeps its files: CAIRN_HOME (default ~/.cairn) and the database path.
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface PathEnv {
  CAIRN_HOME?: string | undefined;
  CAIRN_DB_PATH?: string | undefined;
}

/** The folder for the database, API token and server secret. */
export function cairnHome(env: PathEnv = process.env): string {
  const home = env.CAIRN_HOME;
  return home !== undefined && home !== '' ? home : join(homedir(), '.cairn');
}

/** The database file: an explicit path wins, then CAIRN_DB_PATH, then CAIRN_HOME/cairn.db. */
export function resolveDbPath(explicit?: string, env: PathEnv = process.env): string {
  if (explicit !== undefined && explicit !== '') return explicit;
  const fromEnv = env.CAIRN_DB_PATH;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return join(cairnHome(env), 'cairn.db');
}
