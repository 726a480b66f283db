// The API token and the server secret, each generated once into CAIRN_HOME with mode 0600.
// Safe when several processes start at once: the first exclusive create wins, others read it.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const API_TOKEN_FILE = 'api_token';
export const SECRET_FILE = 'server_secret';

function readOrCreate(path: string, make: () => string): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, `${make()}\n`);
    } finally {
      closeSync(fd);
    }
    chmodSync(path, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  for (let i = 0; i < 50; i++) {
    const value = readFileSync(path, 'utf8').trim();
    if (value !== '') return value;
    // Another process created the file and has not written it yet.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  throw new Error(`${path} is empty; delete it to regenerate`);
}

/**
 * The file holding the API token, as an absolute path with symlinks resolved (what a 401 and
 * the banner name); the unresolved absolute path when it does not exist yet.
 */
export function apiTokenPath(home: string): string {
  const path = resolve(home, API_TOKEN_FILE);
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The bearer token every /api route requires (`~/.cairn/api_token`). */
export function ensureApiToken(home: string): string {
  return readOrCreate(
    join(home, API_TOKEN_FILE),
    () => `cairn_${randomBytes(32).toString('base64url')}`,
  );
}

/** The HMAC key that signs attach-URL bindings (`~/.cairn/server_secret`). */
export function ensureServerSecret(home: string): string {
  return readOrCreate(join(home, SECRET_FILE), () => randomBytes(32).toString('base64url'));
}
