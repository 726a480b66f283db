// `cairn mcp tasks` over stdio started with only CAIRN_DB_URL (no --db, no CAIRN_DB_PATH), as the
// README's PostgreSQL stdio snippet does: it serves from that database, which a core opened on
// the same URL reads, and creates no SQLite file. PostgreSQL only (the postgres project).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';

import { createCore } from '../../src/core/index.js';
import { REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { callOk, ROOT, silentLogger, tempDir, type TempDir } from '../helpers.js';
import { freshPgDatabase, pgAdminUrl } from '../pg-databases.js';

const CLI = join(ROOT, 'bin/cairn.js');
const adminUrl = pgAdminUrl();

describe.skipIf(adminUrl === undefined)('cairn mcp with only CAIRN_DB_URL', () => {
  const closers: (() => Promise<unknown>)[] = [];
  let home: TempDir;
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    home.cleanup();
  });

  it('serves the tasks board from PostgreSQL and writes no SQLite file', async () => {
    home = tempDir('cairn-db-url-');
    const db = await freshPgDatabase(adminUrl ?? '');
    closers.push(() => db.drop());
    // Only what the README's snippet sets (PATH for node), nothing inherited from this process.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', 'tasks'],
      env: { PATH: process.env['PATH'] ?? '', CAIRN_HOME: home.path, CAIRN_DB_URL: db.url },
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'db-url-stdio', version: '0.0.0' });
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    closers.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe('cairn-tasks');
    const created = await callOk<{ id: string }>(client, 'create_task', { title: 'on postgres' });

    const core = await createCore({ dbUrl: db.url, logger: silentLogger, embedder: null });
    closers.push(() => core.close());
    expect(core.store.dialect).toBe('postgres');
    expect((await core.board.getTask(created.id)).task.title).toBe('on postgres');
    expect(existsSync(join(home.path, 'cairn.db'))).toBe(false);
  }, 120_000);
});
