// A fresh store for store-level contract tests: a temp SQLite file, or, when the postgres test
// project runs the file (CAIRN_TEST_PG_URL set), a fresh PostgreSQL database of its own.
import { join } from 'node:path';

import { openStore, type Store } from '../src/store/index.js';
import { tempDir } from './helpers.js';
import { freshPgDatabase, pgAdminUrl } from './pg-databases.js';

export interface TempStore {
  store: Store;
  /** Opens another store on the same database (a second process or replica). */
  reopen(): Promise<Store>;
  close(): Promise<void>;
}

/** Opens a store on a fresh database of the backend this test run is for. */
export async function tempStore(): Promise<TempStore> {
  const dir = tempDir('cairn-store-');
  const adminUrl = pgAdminUrl();
  const pgDb = adminUrl === undefined ? undefined : await freshPgDatabase(adminUrl);
  const where = { path: join(dir.path, 'c.db'), ...(pgDb === undefined ? {} : { url: pgDb.url }) };
  const opened: Store[] = [];
  const open = async (): Promise<Store> => {
    const store = await openStore(where);
    opened.push(store);
    return store;
  };
  return {
    store: await open(),
    reopen: open,
    close: async () => {
      for (const s of opened.splice(0)) await s.close();
      await pgDb?.drop();
      dir.cleanup();
    },
  };
}
