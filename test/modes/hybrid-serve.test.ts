// The hybrid modes against a real `cairn serve` process on a loopback port (auth on, a context
// token from its server secret): server-hybrid forwards index and search and the remote records
// the token's agent; the remote stops mid-session (a clear error within the bound, reads and
// writes), then comes back on the same port and the next call reconnects; client-hybrid runs
// validate here and forwards the rest; and `cairn mcp context --remote` over stdio.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { mintContextToken } from '../../src/auth/index.js';
import type { Core } from '../../src/core/index.js';
import { MODE_UNSERVED, PROVENANCE_META_KEY, REMOTE_UNAVAILABLE } from '../../src/mcp/index.js';
import { connectStdio } from '../concurrency/spawn.js';
import {
  callContext,
  contextCore,
  HYGIENE,
  makeProject,
  type Project,
} from '../context/fixtures.js';
import { backendFor, ROOT, tempDir, type TempDir } from '../helpers.js';
import { type ServeProcess, spawnServe } from '../http/helpers.js';
import { type Hybrid, hybrid, toolRefusal } from './hybrid.js';

const BOUNDS = { connectTimeoutMs: 1000, callTimeoutMs: 3000 };

describe('hybrid modes against a real cairn serve', () => {
  let project: Project;
  let home: TempDir;
  let local: { core: Core; close(): Promise<void> };
  const serves: ServeProcess[] = [];
  const open: Hybrid[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  let dropDb: () => Promise<void>;

  /** `cairn serve` over `home` (its database and secret survive a restart), on `port` or a free one. */
  const serve = async (port = 0): Promise<ServeProcess> => {
    const p = await spawnServe(['--port', String(port), '--db', join(home.path, 'cairn.db')], {
      CAIRN_HOME: home.path,
      CAIRN_CODE_ROOTS: project.root,
      CAIRN_EMBEDDINGS: 'none',
    });
    serves.push(p);
    return p;
  };
  const tokenFor = (agent: string): Promise<string> =>
    mintContextToken({
      secret: readFileSync(join(home.path, 'server_secret'), 'utf8').trim(),
      agent,
    });

  beforeEach(async () => {
    project = makeProject();
    home = tempDir('cairn-hybrid-home-');
    // On the postgres project, one database for every serve over `home` (restarts keep it).
    dropDb = await backendFor(join(home.path, 'cairn.db'));
    local = await contextCore(project);
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    for (const h of open.splice(0)) await h.close();
    for (const s of serves.splice(0)) await s.cleanup();
    await dropDb();
    await local.close();
    home.cleanup();
    project.dir.cleanup();
  });

  it('server-hybrid: forwards with the token, survives the remote stopping and coming back', async () => {
    const first = await serve();
    const url = `${first.base}/api/mcp/context`;
    const h = await hybrid(local.core, 'server-hybrid', url, await tokenFor('ann'), BOUNDS);
    open.push(h);
    await callContext(h.client, 'index_repo', { path: project.root, collection: 'demo' });
    const found = await callContext<{ results: { path: string }[] }>(h.client, 'search_code', {
      query: 'pick',
    });
    expect(found.data.results[0]?.path).toBe('src/pick.ts');
    expect(found.meta?.[PROVENANCE_META_KEY]).toMatchObject({
      authenticated_agent: 'ann',
      machine_id: 'test-host',
      agent_program: 'claude-code',
    });
    expect((await toolRefusal(h.client, 'validate_code', { path: project.root })).reason).toBe(
      MODE_UNSERVED,
    );

    // The remote stops mid-session: a clear error, well within the bounds, for a read and a write.
    first.child.kill('SIGKILL');
    await first.exited;
    const started = Date.now();
    const read = await toolRefusal(h.client, 'search_code', { query: 'pick' });
    expect(read.reason).toBe(REMOTE_UNAVAILABLE);
    expect(read.text).toContain(`the remote ${url} did not answer search_code: `);
    const write = await toolRefusal(h.client, 'clear_index', { collection: 'demo' });
    expect(write.reason).toBe(REMOTE_UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(2 * (BOUNDS.connectTimeoutMs + BOUNDS.callTimeoutMs));

    // Back on the same port with the same database: the next call opens a new session.
    await serve(first.port);
    const again = await callContext<{ results: { path: string }[] }>(h.client, 'search_code', {
      query: 'pick',
    });
    expect(again.data.results[0]?.path).toBe('src/pick.ts');
  });

  it('client-hybrid: validate and index here, search and vcs on the remote', async () => {
    const remote = await serve();
    const h = await hybrid(
      local.core,
      'client-hybrid',
      `${remote.base}/api/mcp/context`,
      await tokenFor('bob'),
      BOUNDS,
    );
    open.push(h);
    const v = await callContext<{ counts: { findings: number } }>(h.client, 'validate_code', {
      path: project.root,
      rules: HYGIENE,
    });
    expect(v.data.counts.findings).toBe(4);
    await callContext(h.client, 'index_repo', { path: project.root, collection: 'here' });
    const found = await callContext<{ status: string }>(h.client, 'search_code', { query: 'pick' });
    expect(found.data.status).toBe('empty_index');
    expect(found.meta?.[PROVENANCE_META_KEY]).toMatchObject({ authenticated_agent: 'bob' });
    const repos = await callContext<{ repos: unknown[] }>(h.client, 'list_repos', {});
    expect(repos.data.repos).toEqual([]);
  });

  it('cairn mcp context --remote over stdio forwards, and refuses validate naming the mode', async () => {
    const remote = await serve();
    const dir = tempDir('cairn-hybrid-stdio-');
    closers.push(() => Promise.resolve(dir.cleanup()));
    const p = await connectStdio({
      bin: join(ROOT, 'bin/cairn-mcp-context.js'),
      what: 'context (server-hybrid)',
      clientName: 'codex',
      db: join(dir.path, 'local.db'),
      env: {
        CAIRN_HOME: join(dir.path, 'home'),
        CAIRN_EMBEDDINGS: 'none',
        CAIRN_CODE_ROOTS: project.root,
        CAIRN_MODEL_ID: 'stdio-model',
        USER: 'dana',
        CAIRN_CONTEXT_REMOTE: remote.base,
        CAIRN_CONTEXT_TOKEN: await tokenFor('cy'),
      },
    });
    closers.push(() => p.client.close());
    const status = await callContext(p.client, 'index_status', {});
    expect(status.meta?.[PROVENANCE_META_KEY]).toMatchObject({
      authenticated_agent: 'cy',
      model_id: 'stdio-model',
      operator_id: 'dana',
      agent_program: 'codex',
    });
    const refused = await toolRefusal(p.client, 'list_rules', {});
    expect(refused).toEqual({
      text: expect.stringMatching(/^list_rules is not served in server-hybrid mode/) as string,
      reason: MODE_UNSERVED,
    });
  });
});
