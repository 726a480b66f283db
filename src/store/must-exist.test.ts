// openSqliteStore({ mustExist: true }): a reader refuses a database that is not there, and
// creates neither the file nor its folder; an existing database opens as usual.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { tempDir, type TempDir } from '../../test/helpers.js';
import { StoreMissingError } from './errors.js';
import { openSqliteStore } from './sqlite.js';

describe('openSqliteStore mustExist', () => {
  let dir: TempDir;
  beforeEach(() => {
    dir = tempDir('cairn-must-exist-');
  });
  afterEach(() => dir.cleanup());

  it('refuses a missing file and creates nothing', async () => {
    const path = join(dir.path, 'no', 'such', 'cairn.db');
    const err: unknown = await openSqliteStore(path, { mustExist: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreMissingError);
    expect((err as StoreMissingError).message).toBe(`no database at ${path}`);
    expect(existsSync(join(dir.path, 'no'))).toBe(false);
  });

  it('opens an existing database', async () => {
    const path = join(dir.path, 'cairn.db');
    await (await openSqliteStore(path)).close();
    const store = await openSqliteStore(path, { mustExist: true });
    await store.close();
  });
});
