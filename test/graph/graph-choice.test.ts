// cairn-graph's per-connection graph: two connections on two named graphs of one store see only
// their own entities, in memory, over stdio (`--graph`, CAIRN_GRAPH_NAME) and over HTTP
// (`?graph=`, written by /api/mcp/config); the nine tools list exactly as on the default graph;
// malformed and reserved `vault:` names are refused (a typed error, exit 2 naming the flag,
// HTTP 400 with -32602).
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import { GraphNameError } from '../../src/graph/index.js';
import { createGraphServer } from '../../src/mcp/index.js';
import { cairn } from '../cli/run.js';
import { REQUEST_TIMEOUT_MS } from '../concurrency/spawn.js';
import { linkedClient, ROOT, tempCore, tempDir, type TempDir } from '../helpers.js';
import { httpClient, postInitialize, type ServeProcess, spawnServe } from '../http/helpers.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const entity = (name: string) => ({ name, entityType: 'thing', observations: [`${name} here`] });

async function create(client: Client, name: string): Promise<void> {
  const r = (await client.callTool({
    name: 'create_entities',
    arguments: { entities: [entity(name)] },
  })) as CallToolResult;
  expect(r.isError, JSON.stringify(r.content)).not.toBe(true);
}

async function names(client: Client): Promise<string[]> {
  const r = (await client.callTool({ name: 'read_graph', arguments: {} })) as CallToolResult;
  const graph = r.structuredContent as { entities: { name: string }[] };
  return graph.entities.map((e) => e.name);
}

/** Writes one entity through `a` and another through `b`; each must see only its own. */
async function expectApart(a: Client, b: Client): Promise<void> {
  await create(a, 'Alpha');
  await create(b, 'Beta');
  expect(await names(a)).toEqual(['Alpha']);
  expect(await names(b)).toEqual(['Beta']);
}

describe('cairn-graph: a graph per connection, in memory', () => {
  it('keeps two connections on two graphs apart, the default graph a third', async () => {
    const t = await tempCore();
    closers.push(t.close);
    const open = async (graph?: string) => {
      const c = await linkedClient(createGraphServer(t.core, { graph }));
      closers.push(() => c.close());
      return c;
    };
    const [a, b, plain] = [await open('alpha'), await open('beta'), await open()];
    await expectApart(a, b);
    expect(await names(plain)).toEqual([]);
    expect(await names(await open('alpha'))).toEqual(['Alpha']);
    expect((await a.listTools()).tools).toEqual((await plain.listTools()).tools);
  });

  it('refuses reserved vault: names and malformed names by type, naming the field', async () => {
    const t = await tempCore();
    closers.push(t.close);
    for (const [graph, message] of [
      ['vault:default', /^graph: graph "vault:default" is reserved: .*kg_query/],
      ['VAULT:work', /is reserved/],
      ['', /^graph: bad graph name ""/],
      ['two words', /bad graph name "two words"/],
      ['x'.repeat(65), /bad graph name/],
      ['../etc', /bad graph name/],
    ] as const) {
      let thrown: unknown;
      try {
        createGraphServer(t.core, { graph });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, graph).toBeInstanceOf(GraphNameError);
      expect((thrown as Error).message).toMatch(message);
    }
  });
});

describe('cairn-graph: a graph per connection, over stdio', () => {
  let dir: TempDir | undefined;
  afterEach(() => dir?.cleanup());

  async function stdio(args: string[], env: Record<string, string> = {}): Promise<Client> {
    if (dir === undefined) throw new Error('no dir');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'bin/cairn.js'), 'mcp', 'graph', '--db', join(dir.path, 'c.db'), ...args],
      env: { CAIRN_HOME: join(dir.path, 'home'), CAIRN_EMBEDDINGS: 'none', ...env },
      cwd: ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'graph-choice', version: '0.0.0' });
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    closers.push(() => client.close());
    return client;
  }

  it('serves --graph, else CAIRN_GRAPH_NAME, else default; the flag wins', async () => {
    dir = tempDir('cairn-graph-choice-');
    await expectApart(
      await stdio(['--graph', 'alpha']),
      await stdio([], { CAIRN_GRAPH_NAME: 'beta' }),
    );
    expect(await names(await stdio([]))).toEqual([]);
    expect(await names(await stdio(['--graph', 'alpha'], { CAIRN_GRAPH_NAME: 'beta' }))).toEqual([
      'Alpha',
    ]);
    expect(await names(await stdio([], { CAIRN_GRAPH_NAME: '' }))).toEqual([]);
  }, 60_000);

  it('exits 2 naming the flag or variable for a reserved or malformed name', async () => {
    dir = tempDir('cairn-graph-choice-');
    const db = ['--db', join(dir.path, 'c.db')];
    const flag = await cairn(dir.path, ['mcp', 'graph', '--graph', 'vault:default', ...db]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^cairn: --graph: graph "vault:default" is reserved/);
    const env = await cairn(dir.path, ['mcp', 'graph', ...db], { CAIRN_GRAPH_NAME: 'a b' });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/^cairn: CAIRN_GRAPH_NAME: bad graph name "a b"/);
  });
});

describe('cairn-graph: a graph per connection, over HTTP', () => {
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.cleanup();
    serve = undefined;
  });

  it('serves ?graph=NAME per session and refuses reserved and malformed names', async () => {
    serve = await spawnServe(['--no-auth']);
    const mount = `${serve.base}/api/mcp/graph`;
    const open = async (query: string) => {
      const c = await httpClient(`${mount}${query}`, null);
      closers.push(c.close);
      return c.client;
    };
    await expectApart(await open('?graph=alpha'), await open('?graph=beta'));
    expect(await names(await open(''))).toEqual([]);
    for (const [query, message] of [
      ['?graph=vault%3Adefault', /^graph: graph "vault:default" is reserved/],
      ['?graph=', /^graph: bad graph name ""/],
      ['?graph=a%20b', /^graph: bad graph name "a b"/],
    ] as const) {
      const res = await postInitialize(`${mount}${query}`, null);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toMatch(message);
    }
  }, 60_000);

  it('writes ?graph= into the attach snippet of /api/mcp/config, and refuses a reserved name', async () => {
    serve = await spawnServe(['--no-auth']);
    const config = `${serve.base}/api/mcp/config?runtime=cursor&server=graph&graphName=`;
    const ok = await fetch(`${config}alpha`);
    expect(ok.status).toBe(200);
    const snippet = (await ok.json()) as { url: string };
    expect(snippet.url).toBe(`${serve.base}/api/mcp/graph?graph=alpha`);
    const attached = await httpClient(snippet.url, null);
    closers.push(attached.close);
    await create(attached.client, 'Alpha');
    const refused = await fetch(`${config}vault%3Awork`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^graphName: graph "vault:work" is reserved/,
    );
  }, 60_000);
});
