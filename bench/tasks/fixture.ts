// Fixtures for the tasks bench: a temp CAIRN_HOME, seeded template databases (created through
// the board service, then copied per measurement) on SQLite files or, given a bench PostgreSQL
// server, PostgreSQL databases, and the commands that start each server on either backend.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pino from 'pino';

import { createCore } from '../../src/core/index.js';
import type { Command } from '../lib/connect.js';
import type { BenchPostgres } from '../lib/postgres.js';
import { ROOT } from '../lib/report.js';

export const LIST_TEAM = 'bench-list';
export const POOL_TEAM = 'bench-pool';

/** A seeded database (a SQLite file path or a PostgreSQL URL) and its claimable task ids. */
export interface Template {
  path: string;
  poolIds: readonly string[];
}

/** A temp folder used as CAIRN_HOME and for every SQLite file; removed by `cleanup`. */
export interface Workspace {
  home: string;
  /** Where a new (empty) database named `name` lives: a file path or a PostgreSQL URL. */
  create(name: string): Promise<string>;
  /** A fresh copy of `template` (the template itself is never served). */
  copy(template: Template, name: string): Promise<string>;
  cleanup(): void;
}

/** A workspace on SQLite files, or on databases of `pg` when given (its server outlives it). */
export function createWorkspace(pg?: BenchPostgres): Workspace {
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const file = (name: string): string => join(home, `${name}.db`);
  return {
    home,
    create: async (name) => (pg === undefined ? file(name) : pg.createDatabase(name)),
    async copy(template, name) {
      if (pg !== undefined) return pg.createDatabase(name, template.path);
      copyFileSync(template.path, file(name));
      return file(name);
    },
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}

const isUrl = (db: string): boolean => /^postgres(ql)?:\/\//.test(db);

/** createCore's options for `db` (CAIRN_DB_URL is ignored for a file: '' forces SQLite). */
export const coreDb = (db: string): { dbPath?: string; dbUrl: string } =>
  isUrl(db) ? { dbUrl: db } : { dbPath: db, dbUrl: '' };

/** A server's flags and environment for `db`, so either backend is chosen explicitly. */
function dbCommand(db: string): { args: string[]; env: Record<string, string> } {
  return isUrl(db)
    ? { args: [], env: { CAIRN_DB_URL: db } }
    : { args: ['--db', db], env: { CAIRN_DB_URL: '' } };
}

/**
 * Seeds a database: `listTasks` tasks in LIST_TEAM (what list_tasks returns) and `poolTasks`
 * todo tasks in POOL_TEAM (what claim_task consumes). Closed (WAL folded) before returning.
 */
export async function seedTemplate(
  ws: Workspace,
  name: string,
  counts: { listTasks: number; poolTasks: number },
): Promise<Template> {
  const path = await ws.create(name);
  const core = await createCore({ ...coreDb(path), logger: pino({ level: 'silent' }) });
  try {
    const { board } = core;
    for (let i = 0; i < counts.listTasks; i++) {
      await board.createTask({
        title: `Board task ${i}: refactor the widget pipeline`,
        description: 'Seeded by the bench. A realistic few-line description of the work.',
        teamId: LIST_TEAM,
        priority: i % 5,
        ...(i % 3 === 0 ? { status: 'backlog' as const } : {}),
      });
    }
    const poolIds: string[] = [];
    for (let i = 0; i < counts.poolTasks; i++) {
      const task = await board.createTask({ title: `Pool task ${i}`, teamId: POOL_TEAM });
      poolIds.push(task.id);
    }
    return { path, poolIds };
  } finally {
    await core.close();
  }
}

/** Hands out each pool task id once, across every client of one measurement. */
export interface Pool {
  next(): string | undefined;
  readonly used: number;
}

export function createPool(ids: readonly string[]): Pool {
  let index = 0;
  return {
    next: () => (index < ids.length ? ids[index++] : undefined),
    get used() {
      return index;
    },
  };
}

const node = process.execPath;

/** The Cairn stdio server (compiled dist/, via its bin) over one database; `flags` e.g. --agent. */
export const cairnStdio = (ws: Workspace, db: string, flags: readonly string[] = []): Command => ({
  command: node,
  args: [join(ROOT, 'bin', 'cairn-mcp-tasks.js'), ...dbCommand(db).args, ...flags],
  env: { CAIRN_HOME: ws.home, ...dbCommand(db).env },
  cwd: ROOT,
});

/** `cairn serve` on loopback port 0 without auth; prints `listening on <url>`. */
export const cairnHttp = (ws: Workspace, db: string): Command => ({
  command: node,
  args: [
    join(ROOT, 'bin', 'cairn.js'),
    'serve',
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--no-auth',
    ...dbCommand(db).args,
  ],
  env: { CAIRN_HOME: ws.home, ...dbCommand(db).env },
  cwd: ROOT,
});
export const CAIRN_URL = /listening on (http:\/\/\S+)/;
export const CAIRN_MCP_PATH = '/api/mcp/tasks';

/** The bare echo server over stdio (TypeScript via tsx; the SDK code it runs is the same). */
export const echoStdio = (): Command => ({
  command: node,
  args: ['--import', 'tsx', join(ROOT, 'bench', 'echo', 'stdio.ts')],
  cwd: ROOT,
});

/** The bare echo server over Streamable HTTP; prints `{"url": …}`. */
export const echoHttp = (): Command => ({
  command: node,
  args: ['--import', 'tsx', join(ROOT, 'bench', 'echo', 'http.ts')],
  cwd: ROOT,
});
export const ECHO_URL = /"url":"([^"]+)"/;
