// `cairn serve` records where it listens ($CAIRN_HOME/serve.json) and the other commands find
// it: config writes the running server's port and database, open asks that server, the readers
// read its database. A clean shutdown removes the file; a killed server's file is stale and
// the commands say no server is running and what they assumed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { ServeRecord } from '../../src/cli/serve-record.js';
import { tempDir, type TempDir } from '../helpers.js';
import { parseSnippet, type ServeProcess, spawnServe, within } from '../http/helpers.js';
import { cairn } from './run.js';

describe('serve.json', () => {
  const procs: ServeProcess[] = [];
  const dirs: TempDir[] = [];
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.cleanup();
    for (const d of dirs.splice(0)) d.cleanup();
  });

  it('config, open and the readers use the running server; a clean stop removes it', async () => {
    const data = tempDir('cairn-data-');
    dirs.push(data);
    const db = join(data.path, 'elsewhere.db');
    const proc = await spawnServe(['--db', db]);
    procs.push(proc);
    const home = proc.home.path;
    const file = join(home, 'serve.json');
    const record = JSON.parse(readFileSync(file, 'utf8')) as ServeRecord;
    // On the postgres project the server's database is its URL (no password to leave out).
    const served = proc.dbUrl ?? db;
    expect(record).toMatchObject({
      url: proc.base,
      port: proc.port,
      pid: proc.child.pid,
      db: served,
    });
    expect(record.irc).toBeNull();
    expect(Date.parse(record.started)).not.toBeNaN();

    const [http, stdio, approvals, agents, open] = await Promise.all([
      cairn(home, ['config', '--runtime', 'claude-code', '--server', 'tasks']),
      cairn(home, ['config', '--runtime', 'cursor', '--server', 'tasks', '--transport', 'stdio']),
      cairn(home, ['approvals', 'list']),
      cairn(home, ['agents', 'list']),
      cairn(home, ['open', '--print']),
    ]);
    expect(http.code, http.stderr).toBe(0);
    expect(parseSnippet('claude-code', 'json', http.stdout).url).toBe(`${proc.base}/api/mcp/tasks`);
    expect(http.stderr).not.toContain('no cairn serve');
    expect(parseSnippet('cursor', 'json', stdio.stdout).env).toEqual(
      proc.dbUrl === undefined ? { CAIRN_DB_PATH: db } : { CAIRN_DB_URL: proc.dbUrl },
    );
    expect(approvals).toMatchObject({ code: 0, stdout: 'no approvals\n', stderr: '' });
    expect(agents).toMatchObject({ code: 0, stdout: 'no agents\n', stderr: '' });
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout).toMatch(new RegExp(`^${proc.base}/login#code=`));
    // The readers opened the server's database, not a new one in CAIRN_HOME.
    expect(existsSync(join(home, 'cairn.db'))).toBe(false);

    proc.child.kill('SIGTERM');
    expect(await within(10_000, 'serve to exit', proc.exited)).toBe(0);
    expect(existsSync(file)).toBe(false);
    const after = await cairn(home, ['config', '--runtime', 'codex', '--server', 'tasks']);
    expect(after.stderr).toContain(`no cairn serve is running: no ${file}; assumed`);
    expect(after.stdout).toContain('url = "http://127.0.0.1:4870/api/mcp/tasks"');
  });

  it("a killed server's file is stale: the commands say so and what they assumed", async () => {
    // SQLite on both projects: what the commands assume is the default file in CAIRN_HOME.
    const first = await spawnServe([], { CAIRN_DB_URL: '' });
    procs.push(first);
    const home = first.home.path;
    const proc = await spawnServe(['--db', join(home, 'other.db')], {
      CAIRN_HOME: home,
      CAIRN_DB_URL: '',
    });
    procs.push(proc);
    proc.child.kill('SIGKILL');
    await within(10_000, 'serve to die', proc.exited);
    // The first server's record was replaced by the second's; its pid is dead now.
    const stale = `${join(home, 'serve.json')} is stale (pid ${proc.child.pid} is gone)`;

    const [config, open, approvals] = await Promise.all([
      cairn(home, ['config', '--runtime', 'codex', '--server', 'tasks'], { CAIRN_PORT: '4999' }),
      cairn(home, ['open', '--print'], { CAIRN_PORT: '9' }),
      cairn(home, ['approvals', 'list']),
    ]);
    expect(config.stderr).toContain(`# no cairn serve is running: ${stale}; assumed`);
    expect(config.stdout).toContain('http://127.0.0.1:4999/api/mcp/tasks');
    expect(open.code).toBe(1);
    expect(open.stderr).toContain(`${stale}; assumed http://127.0.0.1:9`);
    // The default database (the first server's) exists, so the reader reads it, saying why.
    expect(approvals.code, approvals.stderr).toBe(0);
    expect(approvals.stderr).toContain(`${stale}; reading ${join(home, 'cairn.db')}`);
  });
});
