// The commands that read a database (approvals, audit, agents) refuse a path with no database
// instead of creating an empty one there and reporting "no approvals"; only serve and the MCP
// servers create one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { tempDir, type TempDir } from '../helpers.js';
import { cairn } from './run.js';

const READERS = [
  ['approvals', 'list'],
  ['approvals', 'show', 'a1'],
  ['approvals', 'approve', 'a1'],
  ['approvals', 'deny', 'a1'],
  ['audit'],
  ['agents', 'list'],
  ['agents', 'rotate', 'nick'],
  ['agents', 'revoke', 'nick'],
];

describe('readers and a missing database', () => {
  let home: TempDir;
  beforeEach(() => {
    home = tempDir('cairn-missing-');
  });
  afterEach(() => home.cleanup());

  it('refuse --db naming no database, and create nothing', async () => {
    const db = join(home.path, 'typo', 'cairn.db');
    const runs = await Promise.all(READERS.map((args) => cairn(home.path, [...args, '--db', db])));
    for (const [i, run] of runs.entries()) {
      const what = READERS[i]?.join(' ');
      expect(run.code, what).toBe(1);
      expect(run.stdout, what).toBe('');
      expect(run.stderr, what).toContain(`cairn: no database at ${db}: nothing to read`);
    }
    expect(existsSync(join(home.path, 'typo'))).toBe(false);
  });

  it('refuse the default database when no server has made one, saying none is running', async () => {
    const run = await cairn(home.path, ['approvals', 'list']);
    expect(run.code).toBe(1);
    const db = join(home.path, 'cairn.db');
    expect(run.stderr).toContain(
      `no database at ${db} (no cairn serve is running: no ${join(home.path, 'serve.json')})`,
    );
    expect(existsSync(db)).toBe(false);
    // CAIRN_DB_PATH is an explicit choice too.
    const env = await cairn(home.path, ['audit'], { CAIRN_DB_PATH: join(home.path, 'x.db') });
    expect(env.stderr).toContain(`no database at ${join(home.path, 'x.db')}: nothing to read`);
  });

  it('serve and the MCP servers still create one', async () => {
    const db = join(home.path, 'new', 'cairn.db');
    const run = await cairn(home.path, ['mcp', 'tasks', '--db', db]);
    // stdin is closed at once, so the stdio server starts, creates the file and exits.
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(db)).toBe(true);
    expect((await cairn(home.path, ['approvals', 'list', '--db', db])).stdout).toBe(
      'no approvals\n',
    );
  });
});
