// Builds dist/ once (transpiling what changed, test/build-dist.ts) so tests can spawn the real
// bins (stdio servers, contention workers), and the dashboard (web/dist) when it is missing or
// stale, for the browser test.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { buildDist } from './build-dist.js';
import { createTemplate, pgAdminUrl } from './pg-databases.js';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  buildDist(root);
  execFileSync(process.execPath, ['web/ensure-build.js'], { cwd: root, stdio: 'inherit' });
  // The PostgreSQL run copies each test's database from one migrated template.
  const adminUrl = pgAdminUrl();
  return adminUrl === undefined ? undefined : createTemplate(adminUrl);
}
