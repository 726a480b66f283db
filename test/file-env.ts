// Setup file of every project. Test files share one worker process (vitest runs them without
// isolation, for speed), so what one file leaves in process.env or as the working directory
// would reach the next file and every server it spawns. This puts both back after each file and
// names what a file leaked, so the leak is fixed where it starts; child processes a file left
// running are ended (test/file-children.ts).
import { afterAll } from 'vitest';

import { childProcesses, endLeftoverChildren } from './file-children.js';

/** Set on purpose for a whole file by the git tests (no user or system git configuration). */
const PER_FILE = new Set(['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM']);
const envBefore = { ...process.env };
const cwdBefore = process.cwd();
const childrenBefore = new Set(childProcesses().map((c) => c.pid));

afterAll(async () => {
  const leaked: string[] = [];
  for (const key of Object.keys(process.env)) {
    if (process.env[key] !== envBefore[key]) leaked.push(key);
  }
  for (const key of Object.keys(envBefore)) {
    if (!(key in process.env)) leaked.push(key);
  }
  for (const key of leaked) {
    const value = envBefore[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  const named = leaked.filter((key) => !PER_FILE.has(key));
  if (named.length > 0) console.warn(`[test isolation] restored process.env: ${named.join(', ')}`);
  if (process.cwd() !== cwdBefore) {
    console.warn(`[test isolation] restored the working directory from ${process.cwd()}`);
    process.chdir(cwdBefore);
  }
  for (const child of await endLeftoverChildren(childrenBefore)) {
    console.warn(`[test isolation] killed a child process left running: ${child.command}`);
  }
});
