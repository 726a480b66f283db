// Test helpers: a fresh database per test and SDK clients linked to our servers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import pino from 'pino';

import { type Core, type CoreOptions, createCore } from '../src/core/index.js';
import { createTasksServer, type TasksBinding } from '../src/mcp/index.js';
import { freshPgDatabase, pgAdminUrl } from './pg-databases.js';

export const ROOT = new URL('..', import.meta.url).pathname;

export interface TempDir {
  path: string;
  cleanup(): void;
}

export function tempDir(prefix = 'cairn-test-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

export const silentLogger = pino({ level: 'silent' });

/** The PostgreSQL database standing in for a temp core's file on the postgres project. */
const pgUrlOfPath = new Map<string, string>();

/**
 * The environment a spawned process (a CLI command, a stdio server) needs to open the same
 * store as the temp core whose file is `dbPath`: CAIRN_DB_URL on the postgres project, else
 * nothing (the process's --db names the file).
 */
export function backendEnv(dbPath: string): Record<string, string> {
  const url = pgUrlOfPath.get(dbPath);
  return url === undefined ? {} : { CAIRN_DB_URL: url };
}

/**
 * For a test that spawns processes on the file `dbPath` without opening a core itself: on the
 * postgres project, a fresh database that stands in for the file (backendEnv(dbPath) names
 * it); on SQLite nothing. Returns the cleanup, which drops the database.
 */
export async function backendFor(dbPath: string): Promise<() => Promise<void>> {
  const adminUrl = pgAdminUrl();
  if (adminUrl === undefined) return () => Promise.resolve();
  const pgDb = await freshPgDatabase(adminUrl);
  pgUrlOfPath.set(dbPath, pgDb.url);
  return async () => {
    pgUrlOfPath.delete(dbPath);
    await pgDb.drop();
  };
}

/**
 * The database a spawned process that opens its own store (`cairn serve`) uses on the postgres
 * project: the one standing in for its `--db` file when one does (a core opened it), else a
 * fresh one, dropped by `cleanup`. A CAIRN_DB_URL in `env` wins (`''` picks SQLite). On the
 * SQLite project: nothing.
 */
export async function processBackend(
  dbPath: string | undefined,
  env: Record<string, string>,
): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  const none = { env: {}, cleanup: () => Promise.resolve() };
  if ('CAIRN_DB_URL' in env || pgAdminUrl() === undefined) return none;
  const known = dbPath === undefined ? undefined : pgUrlOfPath.get(dbPath);
  if (known !== undefined) return { env: { CAIRN_DB_URL: known }, cleanup: none.cleanup };
  const key = dbPath ?? `process:${(processBackends += 1)}`;
  const cleanup = await backendFor(key);
  return { env: backendEnv(key), cleanup };
}
let processBackends = 0;

/** A core over a fresh database file in a temp dir; `close` removes everything. */
export async function tempCore(
  options: CoreOptions = {},
): Promise<{ core: Core; dir: TempDir; close(): Promise<void> }> {
  const dir = tempDir();
  const dbPath = join(dir.path, 'cairn.db');
  // A database a spawned process already stands in for the same file (processBackend) is shared.
  const shared = options.dbPath === undefined ? undefined : pgUrlOfPath.get(options.dbPath);
  const adminUrl = options.dbUrl === undefined && shared === undefined ? pgAdminUrl() : undefined;
  const pgDb = adminUrl === undefined ? undefined : await freshPgDatabase(adminUrl);
  if (pgDb !== undefined) pgUrlOfPath.set(options.dbPath ?? dbPath, pgDb.url);
  const url = pgDb?.url ?? (options.dbUrl === undefined ? shared : undefined);
  const core = await createCore({
    dbPath,
    logger: silentLogger,
    ...(url === undefined ? {} : { dbUrl: url }),
    ...options,
  });
  return {
    core,
    dir,
    close: async () => {
      await core.close();
      if (pgDb !== undefined) pgUrlOfPath.delete(options.dbPath ?? dbPath);
      await pgDb?.drop();
      dir.cleanup();
    },
  };
}

/** Connects an SDK client (named `name`) to a server over linked in-memory transports. */
export async function linkedClient(server: Server, name = 'cairn-test'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name, version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

export interface LinkedSessions<B> {
  open(options?: CoreOptions): Promise<Core>;
  connect(core: Core, binding?: B): Promise<Client>;
  closeAll(): Promise<void>;
}

/**
 * Opens cores (fresh databases, `defaults.core` under each test's options) and clients linked to
 * `serve(core, binding)`; `closeAll` in afterEach closes them newest first and removes the files.
 */
export function linkedSessions<B>(
  serve: (core: Core, binding: B) => Server,
  defaults: { binding: B; core?: CoreOptions },
): LinkedSessions<B> {
  const cleanups: (() => Promise<void>)[] = [];
  return {
    async open(options = {}) {
      const t = await tempCore({ ...defaults.core, ...options });
      cleanups.push(t.close);
      return t.core;
    },
    async connect(core, binding = defaults.binding) {
      const client = await linkedClient(serve(core, binding));
      cleanups.push(() => client.close());
      return client;
    },
    async closeAll() {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
  };
}

/** The names of the tools a client's server lists, sorted. */
export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name).sort();
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const r = result as CallToolResult;
  const first = r.content[0];
  if (first?.type !== 'text') throw new Error('expected text content');
  return first.text;
}

/** Calls a tool and parses its JSON text, failing if it was a tool-error. */
export async function callOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError === true) throw new Error(`${name} failed: ${textOf(result)}`);
  return JSON.parse(textOf(result)) as T;
}

/** Calls a tool expecting a tool-error; returns its text and _meta. */
export async function callErr(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; meta: Record<string, unknown> | undefined }> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError !== true) throw new Error(`${name} unexpectedly succeeded: ${textOf(result)}`);
  return { text: textOf(result), meta: result._meta };
}

/**
 * Calls a tool expecting the tool error for invalid arguments (`isError`, text `invalid args:
 * …`, `_meta.denied.reason` `invalid_args`); returns its text.
 */
export async function callInvalid(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  const text = result.isError === true ? textOf(result) : '';
  const reason = (result._meta?.['denied'] as { reason?: unknown } | undefined)?.reason;
  if (text.startsWith('invalid args: ') && reason === 'invalid_args') return text;
  throw new Error(`${name} was not refused as invalid args: ${JSON.stringify(result)}`);
}

/** Calls a tool expecting a JSON-RPC -32602 (unknown tool, malformed call); returns the message. */
export async function callRpcInvalid(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  let result: unknown;
  try {
    result = await client.callTool({ name, arguments: args });
  } catch (err) {
    if (err instanceof McpError && err.code === ErrorCode.InvalidParams) return err.message;
    throw err;
  }
  throw new Error(`${name} was not rejected with -32602: ${JSON.stringify(result)}`);
}

/** A clock tests move by hand, for `createCore({ clock })` / `createBoard(store, { clock })`. */
export interface FakeClock {
  readonly now: () => number;
  advance(ms: number): void;
}

export function fakeClock(start = Date.UTC(2030, 0, 1)): FakeClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

export interface TasksSession {
  core: Core;
  client: Client;
  /** Another client on the same core, through a server with its own binding. */
  connect(binding?: TasksBinding): Promise<Client>;
}

/**
 * Opens tasks sessions, each over a fresh database. Call `closeAll` in `afterEach`: it
 * closes every client and core and removes the files.
 */
export function tasksSessions(): {
  open(options?: CoreOptions, binding?: TasksBinding): Promise<TasksSession>;
  closeAll(): Promise<void>;
} {
  const cleanups: (() => Promise<void>)[] = [];
  const connect = async (core: Core, binding: TasksBinding): Promise<Client> => {
    const client = await linkedClient(createTasksServer(core, binding));
    cleanups.push(() => client.close());
    return client;
  };
  return {
    async open(options = {}, binding = {}) {
      const t = await tempCore(options);
      cleanups.push(t.close);
      const client = await connect(t.core, binding);
      return { core: t.core, client, connect: (b = {}) => connect(t.core, b) };
    },
    async closeAll() {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
  };
}
