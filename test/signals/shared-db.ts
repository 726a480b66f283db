// One database several stores or cores share, on the backend the test project runs: a fresh
// PostgreSQL database (CAIRN_TEST_PG_URL set) or a SQLite file in a temp folder. Nothing here
// asserts.
import { join } from 'node:path';

import { type Core, createCore } from '../../src/core/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { silentLogger, tempDir } from '../helpers.js';
import { freshPgDatabase, pgAdminUrl } from '../pg-databases.js';

export interface SharedDb {
  /** The PostgreSQL URL, or undefined on SQLite. */
  readonly url: string | undefined;
  /** The SQLite file (also given to PostgreSQL cores, which ignore it). */
  readonly path: string;
  /** The temp folder (CAIRN_HOME for spawned processes). */
  readonly home: string;
  /** A new store on the database (closed by dispose). */
  store(): Promise<Store>;
  /** A new core on the database (closed by dispose). */
  core(options?: Parameters<typeof createCore>[0]): Promise<Core>;
  dispose(): Promise<void>;
}

export async function sharedDb(): Promise<SharedDb> {
  const dir = tempDir();
  const admin = pgAdminUrl();
  const pg = admin === undefined ? undefined : await freshPgDatabase(admin);
  const path = join(dir.path, 'cairn.db');
  const url = pg?.url;
  const closers: (() => Promise<void>)[] = [];
  return {
    url,
    path,
    home: dir.path,
    async store() {
      const s = await openStore({ url, path });
      closers.push(() => s.close());
      return s;
    },
    async core(options = {}) {
      const c = await createCore({
        dbPath: path,
        dbUrl: url ?? '',
        logger: silentLogger,
        ...options,
      });
      closers.push(() => c.close());
      return c;
    },
    async dispose() {
      for (const close of closers.reverse()) await close().catch(() => undefined);
      await pg?.drop();
      dir.cleanup();
    },
  };
}

/** Resolves with the first value `next` yields that `accept` takes (the test's timeout bounds it). */
export function firstHeard<T>(
  subscribe: (fn: (v: T) => void) => () => void,
  accept: (v: T) => boolean,
): Promise<T> {
  return new Promise((resolve) => {
    const off = subscribe((v) => {
      if (!accept(v)) return;
      off();
      resolve(v);
    });
  });
}

/**
 * Resolves once `store` listens (PostgreSQL: its LISTEN connection is up, which wakes its
 * subscribers with null); at once on SQLite. Call it before the store's first subscription.
 */
export async function listening(store: Store): Promise<void> {
  if (store.signals.reach === 'process') return;
  await firstHeard<string | null>(
    (fn) => store.signals.subscribe('test:listening', fn),
    (p) => p === null,
  );
}
