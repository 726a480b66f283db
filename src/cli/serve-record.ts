// Where a running `cairn serve` listens: `$CAIRN_HOME/serve.json`, written after the ports are
// open and removed on a clean shutdown. The other commands (config, open, approvals, audit,
// agents) read it to find the server and its database; a file whose pid is dead is stale and
// counts as "no server running". It holds no secrets.
import { readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const SERVE_RECORD_FILE = 'serve.json';

export interface ServeRecord {
  /** The HTTP base, e.g. http://127.0.0.1:4870. */
  url: string;
  host: string;
  port: number;
  pid: number;
  /** The database file the server uses, or its PostgreSQL URL (password left out). */
  db: string;
  /** The IRC address (irc:// or ircs://), or null when IRC is off. */
  irc: string | null;
  /** False when the server runs with --no-auth. */
  auth: boolean;
  version: string;
  /** ISO 8601. */
  started: string;
}

export type ServerLookup =
  | { state: 'running'; file: string; record: ServeRecord }
  | { state: 'stale'; file: string; record: ServeRecord }
  | { state: 'none'; file: string };

/** The record's path in `home`. */
export const serveRecordPath = (home: string): string => join(home, SERVE_RECORD_FILE);

/** Writes the record (to a temp file, then renamed, so a reader never sees half of it). */
export function writeServeRecord(home: string, record: ServeRecord): void {
  mkdirSync(home, { recursive: true });
  const file = serveRecordPath(home);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(tmp, file);
}

/** Removes the record if it is still `pid`'s (a later server on the same home keeps its own). */
export function removeServeRecord(home: string, pid: number): void {
  const found = readRecord(serveRecordPath(home));
  if (found?.pid === pid) rmSync(serveRecordPath(home), { force: true });
}

function isRecord(v: unknown): v is ServeRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return typeof r['url'] === 'string' && Number.isInteger(r['pid']) && typeof r['db'] === 'string';
}

function readRecord(file: string): ServeRecord | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** True while a process with this id exists (EPERM: it exists, owned by someone else). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Looks up the server recorded in `home`: running, stale (its pid is gone) or none. */
export function findServer(home: string): ServerLookup {
  const file = serveRecordPath(home);
  const record = readRecord(file);
  if (record === undefined) return { state: 'none', file };
  return isAlive(record.pid)
    ? { state: 'running', file, record }
    : { state: 'stale', file, record };
}

/** Why no server was found, for messages: "no cairn serve is running: …". */
export function noServerReason(lookup: ServerLookup): string {
  if (lookup.state === 'stale')
    return `no cairn serve is running: ${lookup.file} is stale (pid ${lookup.record.pid} is gone)`;
  return `no cairn serve is running: no ${lookup.file}`;
}

/** http://$CAIRN_HOST:$CAIRN_PORT (defaults 127.0.0.1:4870): where a server would listen. */
export function defaultServerUrl(env: NodeJS.ProcessEnv = process.env): string {
  const host = env['CAIRN_HOST'] ?? '127.0.0.1';
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shown}:${env['CAIRN_PORT'] ?? '4870'}`;
}

export interface ServerUrl {
  /** The base URL, no trailing slash. */
  url: string;
  /** Set when no server is running: why, and that `url` is an assumption. */
  assumed?: string;
  /** The running server's record, when `url` came from it. */
  record?: ServeRecord;
}

/** The server to talk to: `explicit` (a --url), else the running one, else the default URL. */
export function resolveServerUrl(
  explicit: string | undefined,
  home: string,
  env: NodeJS.ProcessEnv = process.env,
): ServerUrl {
  if (explicit !== undefined && explicit !== '') return { url: explicit.replace(/\/+$/, '') };
  const lookup = findServer(home);
  if (lookup.state === 'running') return { url: lookup.record.url, record: lookup.record };
  const url = defaultServerUrl(env);
  return { url, assumed: `${noServerReason(lookup)}; assumed ${url}` };
}
