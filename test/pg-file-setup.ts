// Setup file of the PostgreSQL project: after each test file, the database copied ahead for a
// request the file never made is dropped (rather than left for the run's teardown).
import { afterAll } from 'vitest';

import { dropUnusedAhead, pgAdminUrl } from './pg-databases.js';

afterAll(async () => {
  const adminUrl = pgAdminUrl();
  if (adminUrl !== undefined) await dropUnusedAhead(adminUrl);
});
