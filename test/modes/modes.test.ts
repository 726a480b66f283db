// The operation modes through a real SDK client, the remote an in-process `cairn serve` HTTP
// service on 127.0.0.1: the matrix (each mode's local, forwarded and unserved tools),
// forwarding with the local provenance, mode_unserved naming mode and family, the remote
// being down (a clear tool error within the bound), and a forwarding mode without a remote.
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { placement } from '../../src/mcp/context/index.js';
import {
  CONTEXT_FAMILIES,
  CONTEXT_MODES,
  type ContextMode,
  createContextServer,
  MODE_UNSERVED,
  PROVENANCE_META_KEY,
  REMOTE_UNAVAILABLE,
} from '../../src/mcp/index.js';
import {
  callContext,
  CONTEXT_TOOLS,
  contextCore,
  makeProject,
  type Project,
} from '../context/fixtures.js';
import { toolNames } from '../helpers.js';
import { httpSessions, type Running, TOKEN } from '../http/helpers.js';
import { type Hybrid, hybrid, toolRefusal } from './hybrid.js';

const collections = async (core: Core): Promise<string[]> =>
  (await core.codeIndex.status()).collections.map((c) => c.collection);

describe('context operation modes (in-process remote)', () => {
  let project: Project;
  let local: { core: Core; close(): Promise<void> };
  let svc: Running;
  const sessions = httpSessions();
  const open: Hybrid[] = [];

  beforeEach(async () => {
    project = makeProject();
    local = await contextCore(project);
    svc = await sessions.start({}, { embedder: null, codeRoots: [project.root] });
  });
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
    await sessions.closeAll();
    await local.close();
    project.dir.cleanup();
  });

  const connect = async (mode: ContextMode): Promise<Hybrid> => {
    const h = await hybrid(local.core, mode, `${svc.base}/api/mcp/context`, TOKEN);
    open.push(h);
    return h;
  };

  it('places the families exactly as the matrix reads', () => {
    const row = (mode: ContextMode) =>
      Object.fromEntries(CONTEXT_FAMILIES.map((f) => [f.name, placement(mode, f.name)]));
    expect(row('stdio-only')).toEqual({
      search: 'local',
      index: 'local',
      validate: 'local',
      memory: 'local',
      session: 'local',
      agent: 'local',
      project: 'local',
      vcs: 'local',
      entity: 'local',
    });
    expect(row('client-hybrid')).toEqual({
      search: 'remote',
      index: 'local',
      validate: 'local',
      memory: 'remote',
      session: 'remote',
      agent: 'remote',
      project: 'remote',
      vcs: 'remote',
      entity: 'remote',
    });
    expect(row('server-hybrid')).toEqual({
      search: 'remote',
      index: 'remote',
      validate: 'unserved',
      memory: 'remote',
      session: 'remote',
      agent: 'remote',
      project: 'remote',
      vcs: 'remote',
      entity: 'remote',
    });
  });

  it('lists every tool in every mode; only server-hybrid refuses (validate), naming mode and family', async () => {
    const unserved: Record<string, string[]> = {};
    for (const mode of CONTEXT_MODES) {
      const client =
        mode === 'stdio-only'
          ? (await import('../helpers.js')).linkedClient(createContextServer(local.core))
          : connect(mode).then((h) => h.client);
      const c = await client;
      expect(await toolNames(c)).toEqual(CONTEXT_TOOLS);
      unserved[mode] = [];
      for (const tool of ['list_rules', 'validate_code', 'analyze_code', 'list_repos']) {
        const path = join(project.root, 'src/load.ts');
        const r = await c.callTool({
          name: tool,
          arguments: tool === 'list_rules' ? {} : { path },
        });
        const reason = (r._meta?.['denied'] as { reason?: string } | undefined)?.reason;
        if (reason === MODE_UNSERVED) unserved[mode].push(tool);
        else expect(r.isError, `${mode} ${tool}: ${JSON.stringify(r)}`).toBeUndefined();
      }
      if (mode === 'stdio-only') await c.close();
    }
    expect(unserved).toEqual({
      'stdio-only': [],
      'client-hybrid': [],
      'server-hybrid': ['list_rules', 'validate_code', 'analyze_code'],
    });
    const { client } = await connect('server-hybrid');
    expect(await toolRefusal(client, 'list_rules', {})).toEqual({
      text: "list_rules is not served in server-hybrid mode: the validate family runs only in stdio-only and client-hybrid (the spec's mode matrix). Start cairn mcp context with --mode client-hybrid to use it.",
      reason: MODE_UNSERVED,
    });
  });

  it('server-hybrid forwards index and search with the local provenance; the remote records it', async () => {
    const { client } = await connect('server-hybrid');
    const indexed = await callContext<{ job: { state: string } }>(client, 'index_repo', {
      path: project.root,
      collection: 'demo',
    });
    expect(indexed.data.job.state).toBe('done');
    const found = await callContext<{ results: { path: string }[] }>(client, 'search_code', {
      query: 'pick',
    });
    expect(found.data.results[0]?.path).toBe('src/pick.ts');
    // Discovered here (the local core's fixed host and pid), recorded there.
    expect(found.meta?.[PROVENANCE_META_KEY]).toMatchObject({
      session_id: 'cairn-stdio-test-host-4242-1760000000',
      machine_id: 'test-host',
      operator_id: 'ann',
      model_id: 'test-model',
      agent_program: 'claude-code',
    });
    expect(await collections(svc.core)).toEqual(['demo']);
    expect(await collections(local.core)).toEqual([]);
  });

  it('client-hybrid indexes and validates here, and forwards search and vcs', async () => {
    const { client } = await connect('client-hybrid');
    await callContext(client, 'index_repo', { path: project.root, collection: 'here' });
    expect(await collections(local.core)).toEqual(['here']);
    expect(await collections(svc.core)).toEqual([]);
    // search_code runs on the remote, whose index is empty.
    const found = await callContext<{ status: string }>(client, 'search_code', { query: 'pick' });
    expect(found.data.status).toBe('empty_index');
  });

  it('the remote being down is a clear tool error within the bound, for reads and writes', async () => {
    const { client } = await connect('server-hybrid');
    await callContext(client, 'list_repos', {});
    await svc.close();
    const started = Date.now();
    const read = await toolRefusal(client, 'list_repos', {});
    expect(read.reason).toBe(REMOTE_UNAVAILABLE);
    expect(read.text).toMatch(
      new RegExp(
        `^the remote ${svc.base}/api/mcp/context did not answer list_repos: could not connect: ECONNREFUSED`,
      ),
    );
    const write = await toolRefusal(client, 'clear_index', { collection: 'demo' });
    expect(write.reason).toBe(REMOTE_UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a remote that accepts and never answers is a clear error within the connect bound', async () => {
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const h = await hybrid(local.core, 'server-hybrid', `http://127.0.0.1:${port}`, TOKEN, {
        connectTimeoutMs: 400,
      });
      open.push(h);
      const started = Date.now();
      const r = await toolRefusal(h.client, 'list_repos', {});
      const took = Date.now() - started;
      expect(r.reason).toBe(REMOTE_UNAVAILABLE);
      expect(r.text).toMatch(/did not answer list_repos: could not connect: .*gave up after/);
      // Three attempts of 400 ms, 250 + 500 ms apart.
      expect(took).toBeGreaterThanOrEqual(3 * 400);
      expect(took).toBeLessThan(4000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('a forwarding mode without a remote is refused when the server is built', () => {
    expect(() => createContextServer(local.core, { mode: 'client-hybrid' })).toThrow(
      'the context server in client-hybrid mode needs a remote',
    );
  });
});
