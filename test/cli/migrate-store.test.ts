// `cairn migrate-store` as its own process, without a PostgreSQL server: its help, the usage
// errors (exit 2), and the refusals that come before any connection (exit 1): no SQLite file,
// or one whose migrations differ from this cairn's. The copy itself: test/pg/migrate-store.test.ts.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { tempDir, type TempDir } from '../helpers.js';
import { cairn } from './run.js';

let home: TempDir;
beforeEach(() => {
  home = tempDir('cairn-migrate-cli-');
});
afterEach(() => home.cleanup());

/** A URL nothing listens on: these runs must stop before connecting. */
const NOWHERE = 'postgres://cairn@127.0.0.1:1/none';

describe('cairn migrate-store', () => {
  it('--help names every flag', async () => {
    const run = await cairn(home.path, ['migrate-store', '--help']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: cairn migrate-store');
    for (const flag of ['--to <URL>', '--from <FILE>', '--dry-run', '--json'])
      expect(run.stdout).toContain(flag);
  });

  it('usage errors exit 2: no --to, or a URL that is not PostgreSQL', async () => {
    const missing = await cairn(home.path, ['migrate-store']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cairn: --to is required');
    const other = await cairn(home.path, ['migrate-store', '--to', 'mysql://x/y']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('--to must be a postgres:// or postgresql:// URL');
    expect(other.stdout).toBe('');
  });

  it('exits 1 naming the file when there is no SQLite store, and creates none', async () => {
    const file = join(home.path, 'absent.db');
    const run = await cairn(home.path, ['migrate-store', '--from', file, '--to', NOWHERE]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`no SQLite store at ${file}`);
    expect(existsSync(file)).toBe(false);
    const fallback = await cairn(home.path, ['migrate-store', '--to', NOWHERE]);
    expect(fallback.code).toBe(1);
    expect(fallback.stderr).toContain(`no SQLite store at ${join(home.path, 'cairn.db')}`);
  });

  it('refuses a file whose migrations this cairn has not applied', async () => {
    const file = join(home.path, 'old.db');
    writeFileSync(file, '');
    const run = await cairn(home.path, ['migrate-store', '--from', file, '--to', NOWHERE]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/lacks \d+ migrations \(1…\d+\): open it once with this cairn/);
  });
});
