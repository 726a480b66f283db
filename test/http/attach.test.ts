// GET /api/mcp/config: a snippet per runtime × transport that parses, names the right URL and
// header (http) or node command and CAIRN_DB_PATH, or CAIRN_DB_URL on PostgreSQL (stdio), and
// actually works when used.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { renderAttach, RUNTIMES } from '../../src/http/index.js';
import { shareableDbUrl } from '../../src/store/index.js';
import { backendEnv, callOk } from '../helpers.js';
import {
  httpClient,
  type Launch,
  parseSnippet,
  type Running,
  startService,
  TOKEN,
} from './helpers.js';

interface ConfigBody {
  runtime: string;
  server: string;
  transport: string;
  file: string;
  format: string;
  snippet: string;
  url?: string;
}

async function getConfig(svc: Running, query: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${svc.base}/api/mcp/config?${query}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, body: await res.json() };
}

/** Spawns a stdio snippet exactly as written and returns a connected client. */
async function spawnStdio(launch: Launch): Promise<Client> {
  const transport = new StdioClientTransport({
    command: launch.command ?? '',
    args: launch.args ?? [],
    env: launch.env ?? {},
    stderr: 'ignore',
  });
  const client = new Client({ name: 'stdio-snippet', version: '0' });
  await client.connect(transport);
  return client;
}

describe('GET /api/mcp/config', () => {
  let svc: Running;
  const cleanups: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    svc = await startService();
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
    await svc.close();
  });

  for (const runtime of RUNTIMES) {
    for (const transport of ['http', 'stdio'] as const) {
      it(`renders a ${runtime} ${transport} snippet`, async () => {
        const { status, body } = await getConfig(
          svc,
          `runtime=${runtime}&server=tasks&transport=${transport}`,
        );
        expect(status).toBe(200);
        const config = body as ConfigBody;
        expect(config).toMatchObject({ runtime, server: 'tasks', transport });
        expect(config.file).not.toBe('');
        expect(config.format).toBe(runtime === 'codex' ? 'toml' : 'json');
        const launch = parseSnippet(runtime, config.format, config.snippet);
        if (transport === 'http') {
          expect(launch.url).toBe(svc.mcpUrl);
          expect(config.url).toBe(svc.mcpUrl);
          expect(launch.headers).toEqual({ Authorization: `Bearer ${TOKEN}` });
          expect(launch.command).toBeUndefined();
          if (runtime === 'claude-code') expect(launch.kind).toBe('http');
          if (runtime === 'openclaw') expect(launch.kind).toBe('streamable-http');
        } else {
          expect(launch.command).toBe(process.execPath);
          expect(launch.args?.[0]).toMatch(/bin[/\\]cairn\.js$/);
          expect(launch.args?.slice(1)).toEqual(['mcp', 'tasks']);
          // The database the service uses: its file, or its PostgreSQL URL (postgres project).
          const pg = backendEnv(svc.core.dbPath);
          expect(launch.env).toEqual(
            'CAIRN_DB_URL' in pg ? pg : { CAIRN_DB_PATH: svc.core.dbPath },
          );
          expect(launch.url).toBeUndefined();
          expect(config.snippet).not.toContain(TOKEN);
          if (runtime === 'claude-code') expect(launch.kind).toBe('stdio');
        }
      });
    }
  }

  it('an http snippet connects as written', async () => {
    const { body } = await getConfig(svc, 'runtime=cursor&server=tasks');
    const launch = parseSnippet('cursor', 'json', (body as ConfigBody).snippet);
    const c = await httpClient(launch.url ?? '', null, launch.headers ?? {});
    cleanups.push(c.close);
    expect((await c.client.listTools()).tools).toHaveLength(14);
    await callOk(c.client, 'create_task', { title: 'via snippet' });
  });

  it('a stdio snippet spawns and reaches the same board', async () => {
    const master = await httpClient(svc.mcpUrl, TOKEN);
    cleanups.push(master.close);
    const created = await callOk<{ id: string }>(master.client, 'create_task', {
      title: 'shared',
      teamId: 't1',
    });
    await callOk(master.client, 'create_task', { title: 'other team', teamId: 't2' });

    const { body } = await getConfig(svc, 'runtime=codex&server=tasks&transport=stdio');
    const launch = parseSnippet('codex', 'toml', (body as ConfigBody).snippet);
    const client = await spawnStdio(launch);
    cleanups.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe('cairn-tasks');
    expect((await client.listTools()).tools).toHaveLength(14);
    const listed = await callOk<{ tasks: Array<{ id: string }> }>(client, 'list_tasks', {
      teamId: 't1',
    });
    expect(listed.tasks.map((t) => t.id)).toEqual([created.id]);

    // A bound stdio snippet carries its binding as flags.
    const bound = await getConfig(
      svc,
      'runtime=claude-code&server=tasks&transport=stdio&scopeTeamId=t1&readOnly=1',
    );
    const boundLaunch = parseSnippet('claude-code', 'json', (bound.body as ConfigBody).snippet);
    expect(boundLaunch.args?.slice(1)).toEqual(['mcp', 'tasks', '--read-only', '--team', 't1']);
    const boundClient = await spawnStdio(boundLaunch);
    cleanups.push(() => boundClient.close());
    expect((await boundClient.listTools()).tools.map((t) => t.name).sort()).toEqual([
      'get_task',
      'list_tasks',
    ]);
    const scoped = await callOk<{ tasks: Array<{ id: string }> }>(boundClient, 'list_tasks', {
      teamId: 't2',
    });
    expect(scoped.tasks.map((t) => t.id)).toEqual([created.id]);
  });

  it('leaves the PostgreSQL password out of a stdio snippet and says so', () => {
    const ctx = { baseUrl: 'http://h', apiToken: TOKEN, secret: 's', dbPath: '/unused.db' };
    const input = { runtime: 'cursor', server: 'tasks', transport: 'stdio' } as const;
    const secret = renderAttach(input, {
      ...ctx,
      dbUrl: shareableDbUrl('postgres://ann:s3cret@db.example:5432/cairn'),
    });
    expect(secret.snippet).not.toContain('s3cret');
    expect(parseSnippet('cursor', 'json', secret.snippet).env).toEqual({
      CAIRN_DB_URL: 'postgres://ann@db.example:5432/cairn',
    });
    expect(secret.note).toMatch(/leaves out the database password: set PGPASSWORD/);
    const open = renderAttach(input, { ...ctx, dbUrl: shareableDbUrl('postgres://ann@h/cairn') });
    expect(parseSnippet('cursor', 'json', open.snippet).env).toEqual({
      CAIRN_DB_URL: 'postgres://ann@h/cairn',
    });
    expect(open.note).toBeUndefined();
  });

  it('refuses an invalid query with 400 and a JSON error', async () => {
    for (const query of [
      'runtime=vscode&server=tasks',
      'server=tasks',
      'runtime=codex&server=nope',
      'runtime=codex&server=tasks&transport=ws',
      'runtime=codex&server=tasks&readOnly=maybe',
      `runtime=codex&server=tasks&scopeTeamId=${'x'.repeat(201)}`,
    ]) {
      const { status, body } = await getConfig(svc, query);
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ error: 'invalid query', message: expect.any(String) });
    }
    const { body } = await getConfig(svc, 'runtime=vscode&server=tasks');
    expect((body as { message: string }).message).toMatch(/^runtime: /);
  });
});
