// Runs the built `cairn` CLI (`node bin/cairn.js …`) as its own OS process with CAIRN_HOME set
// and no inherited CAIRN_* overrides (a developer's CAIRN_DB_PATH or CAIRN_PORT would leak in).
import { execFile } from 'node:child_process';
import { join } from 'node:path';

import { backendEnv, ROOT } from '../helpers.js';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** backendEnv of the file a `--db FILE` names, else nothing. */
function dbEnv(args: readonly string[]): Record<string, string> {
  const at = args.indexOf('--db');
  const file = at < 0 ? undefined : args[at + 1];
  return file === undefined ? {} : backendEnv(file);
}

/**
 * `node bin/cairn.js ...args` with CAIRN_HOME=`home` and `env` on top; with `--db FILE`, the
 * PostgreSQL database standing in for FILE on the postgres project (backendEnv).
 */
export function cairn(
  home: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: home };
  for (const key of Object.keys(base))
    if (key.startsWith('CAIRN_') && key !== 'CAIRN_HOME') delete base[key];
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(ROOT, 'bin/cairn.js'), ...args],
      {
        cwd: ROOT,
        env: { ...base, CAIRN_LOG_LEVEL: 'warn', ...dbEnv(args), ...env },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    // No input: a stdio server sees end-of-input and exits at once.
    child.stdin?.end();
  });
}
