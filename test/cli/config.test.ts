// `cairn config` and `cairn token` as real processes: snippets for every runtime × transport
// that parse and name the right things, and that work when pasted (against a live service).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { writeServeRecord } from '../../src/cli/serve-record.js';
import { ensureApiToken, ensureServerSecret, RUNTIMES } from '../../src/http/index.js';
import { MCP_SERVER_NAMES } from '../../src/mcp/index.js';
import { callOk, tempDir, type TempDir } from '../helpers.js';
import { httpClient, parseSnippet, type Running, startService } from '../http/helpers.js';
import { cairn } from './run.js';

describe('cairn config', () => {
  let home: TempDir;
  let svc: Running | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  beforeEach(() => {
    home = tempDir('cairn-cli-');
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
    await svc?.close();
    svc = undefined;
    home.cleanup();
  });

  for (const runtime of RUNTIMES) {
    for (const transport of ['http', 'stdio'] as const) {
      it(`prints a ${runtime} ${transport} snippet`, async () => {
        const run = await cairn(home.path, [
          'config',
          '--runtime',
          runtime,
          '--server',
          'tasks',
          '--transport',
          transport,
        ]);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stderr).toMatch(new RegExp(`^# ${runtime} · tasks · ${transport} → add to `));
        const launch = parseSnippet(runtime, runtime === 'codex' ? 'toml' : 'json', run.stdout);
        const token = readFileSync(join(home.path, 'api_token'), 'utf8').trim();
        if (transport === 'http') {
          expect(launch.url).toBe('http://127.0.0.1:4870/api/mcp/tasks');
          expect(launch.headers).toEqual({ Authorization: `Bearer ${token}` });
        } else {
          expect(launch.command).toBe(process.execPath);
          expect(launch.args?.[0]).toMatch(/bin[/\\]cairn\.js$/);
          expect(launch.args?.slice(1)).toEqual(['mcp', 'tasks']);
          expect(launch.env).toEqual({ CAIRN_DB_PATH: join(home.path, 'cairn.db') });
        }
      });
    }
  }

  it('a stdio snippet names a PostgreSQL store by CAIRN_DB_URL, without its password', async () => {
    const stdio = ['config', '--runtime', 'cursor', '--server', 'tasks', '--transport', 'stdio'];
    const url = 'postgres://ann:s3cret@db.example:5432/cairn';
    const run = await cairn(home.path, stdio, { CAIRN_DB_URL: url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('s3cret');
    expect(parseSnippet('cursor', 'json', run.stdout).env).toEqual({
      CAIRN_DB_URL: 'postgres://ann@db.example:5432/cairn',
    });
    expect(run.stderr).toMatch(/leaves out the database password: set PGPASSWORD/);
    // The running server's database (serve.json holds its URL without the password).
    writeServeRecord(home.path, {
      url: 'http://127.0.0.1:4999',
      host: '127.0.0.1',
      port: 4999,
      pid: process.pid,
      db: 'postgres://ann@db.example:5432/cairn',
      irc: null,
      auth: true,
      version: '0',
      started: new Date().toISOString(),
    });
    const running = await cairn(home.path, stdio);
    expect(parseSnippet('cursor', 'json', running.stdout).env).toEqual({
      CAIRN_DB_URL: 'postgres://ann@db.example:5432/cairn',
    });
  });

  it('writes the context server snippets (http and stdio); it takes no binding flags', async () => {
    const http = await cairn(home.path, ['config', '--runtime', 'cursor', '--server', 'context']);
    expect(http.code, http.stderr).toBe(0);
    expect(http.stderr).toMatch(/^# cursor · context · http → add to /);
    expect(JSON.parse(http.stdout)).toMatchObject({
      mcpServers: { 'cairn-context': { url: 'http://127.0.0.1:4870/api/mcp/context' } },
    });
    const stdio = await cairn(home.path, [
      ...['config', '--runtime', 'codex', '--server', 'context', '--transport', 'stdio'],
    ]);
    expect(stdio.code, stdio.stderr).toBe(0);
    expect(stdio.stdout.split('\n')[0]).toBe('[mcp_servers.cairn-context]');
    expect(stdio.stdout).toMatch(/^args = \[".*cairn\.js", "mcp", "context"\]$/m);
    const bound = await cairn(home.path, [
      ...['config', '--runtime', 'codex', '--server', 'context', '--team', 't1'],
    ]);
    expect(bound.code).toBe(2);
    expect(bound.stderr).toContain('--team does not apply to the context server');
  });

  it("names the graph server's graph: ?graph= over http (unsigned), --graph over stdio", async () => {
    const graph = ['config', '--runtime', 'cursor', '--server', 'graph', '--graph', 'alpha'];
    const http = await cairn(home.path, graph);
    expect(http.code, http.stderr).toBe(0);
    expect(JSON.parse(http.stdout)).toMatchObject({
      mcpServers: { 'cairn-graph': { url: 'http://127.0.0.1:4870/api/mcp/graph?graph=alpha' } },
    });
    const stdio = await cairn(home.path, [...graph, '--transport', 'stdio']);
    const launch = (JSON.parse(stdio.stdout) as { mcpServers: Record<string, { args: string[] }> })
      .mcpServers['cairn-graph'];
    expect(launch?.args.slice(1)).toEqual(['mcp', 'graph', '--graph', 'alpha']);
    const reserved = await cairn(home.path, [...graph.slice(0, -1), 'vault:default']);
    expect(reserved.code).toBe(2);
    expect(reserved.stderr).toMatch(/^cairn: --graph: graph "vault:default" is reserved/);
    const other = await cairn(home.path, [
      ...['config', '--runtime', 'cursor', '--server', 'tasks', '--graph', 'alpha'],
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('--graph does not apply to the tasks server');
  });

  it('exits 2 on an invalid runtime or transport', async () => {
    const cases = [
      ['--runtime', 'vscode', '--server', 'tasks'],
      ['--server', 'tasks'],
      ['--runtime', 'codex', '--server', 'tasks', '--transport', 'ws'],
      ['--runtime', 'codex', '--server', 'nope'],
      ['--runtime', 'codex', '--bogus-flag'],
    ];
    const runs = await Promise.all(cases.map((args) => cairn(home.path, ['config', ...args])));
    for (const [i, run] of runs.entries()) {
      const what = cases[i]?.join(' ');
      expect(run.code, what).toBe(2);
      expect(run.stdout, what).toBe('');
      expect(run.stderr, what).toMatch(/^cairn: /);
    }
    expect(runs[0]?.stderr).toMatch(/--runtime/);
  });

  it('asks for --server, listing the servers', async () => {
    const run = await cairn(home.path, ['config', '--runtime', 'codex']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      `cairn: --server is required: one of ${MCP_SERVER_NAMES.join(', ')}`,
    );
  });

  it('refuses a binding flag the server does not bind (its stdio command would refuse it)', async () => {
    const run = await cairn(home.path, [
      ...['config', '--runtime', 'codex', '--server', 'teamchat', '--transport', 'stdio'],
      ...['--team', 't1'],
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'cairn: --team does not apply to the teamchat server (it binds --room-team, --author, --delegate)',
    );
    const backplane = await cairn(home.path, [
      ...['config', '--runtime', 'codex', '--server', 'backplane', '--agent', 'a1'],
    ]);
    expect(backplane.stderr).toContain('(it takes no binding flags)');
  });

  it('an http snippet from the CLI connects to a live service, bound ones too', async () => {
    svc = await startService(
      { apiToken: ensureApiToken(home.path), secret: ensureServerSecret(home.path) },
      { dbPath: join(home.path, 'cairn.db') },
    );
    const plain = await cairn(home.path, [
      ...['config', '--runtime', 'claude-code', '--server', 'tasks'],
      ...['--url', svc.base],
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    const launch = parseSnippet('claude-code', 'json', plain.stdout);
    const c = await httpClient(launch.url ?? '', null, launch.headers ?? {});
    cleanups.push(c.close);
    expect((await c.client.listTools()).tools).toHaveLength(14);
    await callOk(c.client, 'create_task', { title: 'mine', teamId: 't1' });
    await callOk(c.client, 'create_task', { title: 'theirs', teamId: 't2' });

    const bound = await cairn(home.path, [
      'config',
      '--runtime',
      'openclaw',
      '--server',
      'tasks',
      '--url',
      `${svc.base}/`,
      '--team',
      't1',
      '--read-only',
    ]);
    expect(bound.code, bound.stderr).toBe(0);
    const boundLaunch = parseSnippet('openclaw', 'json', bound.stdout);
    expect(boundLaunch.headers?.['Authorization']).toMatch(/^Bearer cairn_scoped_/);
    const b = await httpClient(boundLaunch.url ?? '', null, boundLaunch.headers ?? {});
    cleanups.push(b.close);
    expect((await b.client.listTools()).tools.map((t) => t.name).sort()).toEqual([
      'get_task',
      'list_tasks',
    ]);
    const listed = await callOk<{ tasks: Array<{ title: string }> }>(b.client, 'list_tasks', {});
    expect(listed.tasks.map((t) => t.title)).toEqual(['mine']);
  });
});

describe('cairn token', () => {
  it('prints the token from CAIRN_HOME/api_token, created once with mode 0600', async () => {
    const home = tempDir('cairn-cli-');
    try {
      const first = await cairn(home.path, ['token']);
      expect(first.code, first.stderr).toBe(0);
      const file = join(home.path, 'api_token');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first.stdout.trim()).toBe(readFileSync(file, 'utf8').trim());
      const second = await cairn(home.path, ['token']);
      expect(second.stdout).toBe(first.stdout);
    } finally {
      home.cleanup();
    }
  });
});
