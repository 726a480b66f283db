// `cairn serve` as a real process: prints its address, creates the token file 0600, serves MCP
// over HTTP, and on SIGTERM / SIGINT exits 0 with the WAL checkpointed and the data kept.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createCore } from '../../src/core/index.js';
import { MCP_SERVER_NAMES } from '../../src/mcp/index.js';
import { callOk, silentLogger } from '../helpers.js';
import { httpClient, type ServeProcess, spawnServe, within } from '../http/helpers.js';

describe('cairn serve', () => {
  let proc: ServeProcess | undefined;
  afterEach(async () => {
    await proc?.cleanup();
    proc = undefined;
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`serves, then exits 0 on ${signal} with the WAL checkpointed`, async () => {
      // SQLite on both projects: this is about the file and its write-ahead log.
      proc = await spawnServe([], { CAIRN_DB_URL: '' });
      const home = proc.home.path;
      expect(proc.stdout()).toContain(`MCP: ${proc.base}/api/mcp/tasks`);
      expect(proc.stdout()).toContain(`database: ${join(home, 'cairn.db')}`);

      const tokenFile = join(home, 'api_token');
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect(statSync(join(home, 'server_secret')).mode & 0o777).toBe(0o600);
      const token = readFileSync(tokenFile, 'utf8').trim();
      expect(token).toMatch(/^cairn_/);

      const unauth = await fetch(`${proc.base}/api/mcp/tasks`, {
        method: 'POST',
        signal: AbortSignal.timeout(10_000),
      });
      expect(unauth.status).toBe(401);
      expect(((await unauth.json()) as { message: string }).message).toContain(
        `API token is in ${realpathSync(tokenFile)} `,
      );

      const c = await httpClient(`${proc.base}/api/mcp/tasks`, token);
      const titles = ['one', 'two', 'three'];
      try {
        for (const title of titles) await callOk(c.client, 'create_task', { title });
        const wal = join(home, 'cairn.db-wal');
        expect(existsSync(wal)).toBe(true);
        expect(statSync(wal).size).toBeGreaterThan(0);

        // Signal while the client still holds an open session (and its GET stream).
        proc.child.kill(signal);
        expect(await within(10_000, `serve to exit on ${signal}`, proc.exited)).toBe(0);
      } finally {
        await c.close().catch(() => undefined);
      }

      const wal = join(home, 'cairn.db-wal');
      expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);

      const core = await createCore({ dbPath: join(home, 'cairn.db'), logger: silentLogger });
      try {
        const tasks = await core.board.listTasks({});
        expect(tasks.map((t) => t.title).sort()).toEqual([...titles].sort());
      } finally {
        await core.close();
      }
    });
  }

  it('prints the dashboard, every MCP endpoint, IRC, the database and the embedder', async () => {
    proc = await spawnServe([], { CAIRN_EMBEDDINGS: 'none' });
    const home = proc.home.path;
    const lines = proc.stdout().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^cairn \\S+ listening on ${proc.base}$`));
    const dashboard = lines.find((l) => l.startsWith('  dashboard: '));
    // The test run builds web/dist, so the banner gives the URL and how to log in.
    expect(dashboard).toBe(`  dashboard: ${proc.base}/  (log in with a one-time link: cairn open)`);
    const out = proc.stdout();
    for (const name of MCP_SERVER_NAMES) expect(out).toContain(`${proc.base}/api/mcp/${name}`);
    expect(out).toContain(`       ${proc.base}/mcp (the backplane at the spec's path)`);
    expect(out).toContain('  IRC: off\n');
    // The file, or on PostgreSQL its URL (the test server's has no password to leave out).
    expect(out).toContain(`  database: ${proc.dbUrl ?? join(home, 'cairn.db')}\n`);
    expect(out).toContain('  embedder: none (memory search is full text only)\n');
    expect(out).toContain(`  runtime file: ${join(home, 'serve.json')}`);
  });

  it('keeps the same token across restarts', async () => {
    proc = await spawnServe();
    const home = proc.home;
    const token = readFileSync(join(home.path, 'api_token'), 'utf8');
    proc.child.kill('SIGTERM');
    expect(await within(10_000, 'serve to exit', proc.exited)).toBe(0);
    // Restart on the same home (the first handle's cleanup would remove it, so keep it).
    const again = await spawnServe([], { CAIRN_HOME: home.path });
    try {
      expect(readFileSync(join(home.path, 'api_token'), 'utf8')).toBe(token);
      const c = await httpClient(`${again.base}/api/mcp/tasks`, token.trim());
      await c.close();
    } finally {
      again.child.kill('SIGTERM');
      await within(10_000, 'second serve to exit', again.exited).catch(() => undefined);
      await again.cleanup();
    }
  });

  it('serves without a token with --no-auth on loopback and refuses it elsewhere', async () => {
    proc = await spawnServe(['--no-auth']);
    expect(proc.stdout()).toContain('auth: disabled');
    expect(existsSync(join(proc.home.path, 'api_token'))).toBe(false);
    const c = await httpClient(`${proc.base}/api/mcp/tasks`, null);
    try {
      expect(c.client.getServerVersion()?.name).toBe('cairn-tasks');
    } finally {
      await c.close();
    }

    await expect(spawnServe(['--no-auth', '--host', '0.0.0.0'])).rejects.toThrow(
      /serve exited early \(2\).*only allowed on a loopback host/s,
    );
  });
});
