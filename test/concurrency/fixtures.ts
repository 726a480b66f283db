// Per-test fixtures for the multi-process suites: a fresh database file and CAIRN_HOME in a
// temp dir, a pool of spawned servers on that file, and in-process access for seeding and
// for reading the final state back. `dispose` kills every process and removes the dir.
import { join } from 'node:path';

import { type Core, createCore } from '../../src/core/index.js';
import { silentLogger, tempDir } from '../helpers.js';
import { freshPgDatabase, pgAdminUrl } from '../pg-databases.js';
import { ProcessPool } from './spawn.js';

export interface Arena {
  db: string;
  pool: ProcessPool;
  /** Runs `fn` on an in-process core over the same file (its own connection), then closes it. */
  withCore<T>(fn: (core: Core) => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}

/** `env` is added to every spawned server's environment; `bin` is the server (default tasks). */
export async function createArena(
  options: { env?: Record<string, string>; bin?: string } = {},
): Promise<Arena> {
  const dir = tempDir('cairn-conc-');
  const db = join(dir.path, 'cairn.db');
  const home = join(dir.path, 'home');
  // On the PostgreSQL run every process shares one fresh database instead of the file.
  const adminUrl = pgAdminUrl();
  const pgDb = adminUrl === undefined ? undefined : await freshPgDatabase(adminUrl);
  const env = pgDb === undefined ? options.env : { ...options.env, CAIRN_DB_URL: pgDb.url };
  const pool = new ProcessPool({ db, home, env, bin: options.bin });
  const withCore = async <T>(fn: (core: Core) => Promise<T>): Promise<T> => {
    const core = await createCore({ dbPath: db, dbUrl: pgDb?.url ?? '', logger: silentLogger });
    try {
      return await fn(core);
    } finally {
      await core.close();
    }
  };
  // Create and migrate the file up front, so the race measures claims, not schema setup.
  await withCore(() => Promise.resolve());
  return {
    db,
    pool,
    withCore,
    dispose: async () => {
      await pool.closeAll();
      await pgDb?.drop();
      dir.cleanup();
    },
  };
}

/** Creates `n` todo root tasks through the uncapped board primitive; returns their ids. */
export async function seedTasks(core: Core, n: number, prefix = 'task'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await core.board.createTask({ title: `${prefix} ${i}`, priority: i % 7 })).id);
  }
  return ids;
}
