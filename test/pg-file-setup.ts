// Setup file of the PostgreSQL project: after each test file, the database copied ahead for a
// request the file never made is dropped (rather than left for the run's teardown), and a file
// that never asked for a database is named: it runs exactly as on SQLite, so it does not belong
// in the project (list it in SQLITE_ONLY_SUITES, vitest.config.ts).
import { afterAll, expect } from 'vitest';

import { databaseRequests, dropUnusedAhead, pgAdminUrl } from './pg-databases.js';

const requestsBefore = databaseRequests();

afterAll(async () => {
  const adminUrl = pgAdminUrl();
  if (adminUrl !== undefined) await dropUnusedAhead(adminUrl);
  const file = expect.getState().testPath ?? 'a test file';
  // The suites under test/pg make databases of their own (or run PGlite).
  if (databaseRequests() === requestsBefore && !file.includes('/test/pg/')) {
    console.warn(`[postgres project] never asked for a database: ${file}`);
  }
});
