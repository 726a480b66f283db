// The context server's token auth over HTTP (an in-process service on 127.0.0.1 with auth on):
// a context token as the bearer or as the `token` argument or `_meta["cairn/token"]` names the
// caller, recorded as provenance `authenticated_agent`; an expired or wrongly-signed token is
// JSON-RPC -32001 with a plain message (401 with that body as a bearer); `_meta` cannot set the
// identity, with auth on or off; and a hybrid server forwards the caller's token.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { mintContextToken } from '../../src/auth/index.js';
import { CONTEXT_AUTH_ERROR, PROVENANCE_META_KEY } from '../../src/mcp/index.js';
import { callContext, contextCore, makeProject, type Project } from '../context/fixtures.js';
import { httpSessions, postInitialize, type Running, SECRET, TOKEN } from '../http/helpers.js';
import { hybrid, rpcError } from './hybrid.js';

const mint = (
  agent: string,
  options: { ttlSeconds?: number; now?: number; secret?: string } = {},
) => mintContextToken({ secret: options.secret ?? SECRET, agent, ...options });

describe('context token auth over HTTP', () => {
  let project: Project;
  let svc: Running;
  const sessions = httpSessions();

  beforeEach(async () => {
    project = makeProject();
    svc = await sessions.start({}, { embedder: null, codeRoots: [project.root] });
  });
  afterEach(async () => {
    await sessions.closeAll();
    project.dir.cleanup();
  });

  const url = (): string => `${svc.base}/api/mcp/context`;
  const META = { model_id: 'm', operator_id: 'ann' };
  const agentOf = async (
    client: Parameters<typeof callContext>[0],
    args: Record<string, unknown> = {},
    meta: Record<string, unknown> = META,
  ) => {
    const r = await client.callTool({ name: 'index_status', arguments: args, _meta: meta });
    if (r.isError === true) throw new Error(JSON.stringify(r));
    return (r._meta?.[PROVENANCE_META_KEY] as { authenticated_agent?: string }).authenticated_agent;
  };

  it('a context token as the bearer names the caller; the token argument and _meta override it', async () => {
    const { client } = await sessions.connect(url(), await mint('ann'));
    expect(await agentOf(client)).toBe('ann');
    expect(await agentOf(client, { token: await mint('bob') })).toBe('bob');
    expect(await agentOf(client, {}, { ...META, 'cairn/token': await mint('cy') })).toBe('cy');
    const master = await sessions.connect(url(), TOKEN);
    expect(await agentOf(master.client)).toBeUndefined();
    expect(await agentOf(master.client, { token: await mint('dee') })).toBe('dee');
  });

  it('an expired or wrongly-signed token is -32001 with a plain message', async () => {
    const { client } = await sessions.connect(url(), TOKEN);
    const expired = await mint('ann', { ttlSeconds: 60, now: Date.now() - 120_000 });
    expect(await rpcError(client, 'index_status', { token: expired }, META)).toEqual({
      code: CONTEXT_AUTH_ERROR,
      message: 'token expired: mint a new one (cairn token mint)',
    });
    const foreign = await mint('ann', { secret: 'another-server' });
    expect(await rpcError(client, 'search_code', { query: 'x', token: foreign }, META)).toEqual({
      code: CONTEXT_AUTH_ERROR,
      message:
        "token signature does not match this server's secret: it was minted by another server",
    });
    expect(await rpcError(client, 'list_rules', {}, { 'cairn/token': 'garbage' })).toEqual({
      code: CONTEXT_AUTH_ERROR,
      message: 'token is not a valid JWT',
    });
  });

  it('a bad context token as the bearer is 401 with the -32001 body', async () => {
    const expired = await mint('ann', { ttlSeconds: 60, now: Date.now() - 120_000 });
    const res = await postInitialize(url(), expired);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'token expired: mint a new one (cairn token mint)' },
      id: null,
    });
    const foreign = await postInitialize(url(), await mint('ann', { secret: 'x' }));
    expect(foreign.status).toBe(401);
    // Other mounts do not take context tokens.
    const tasks = await postInitialize(`${svc.base}/api/mcp/tasks`, await mint('ann'));
    expect(tasks.status).toBe(401);
    await tasks.text();
  });

  it('_meta cannot set authenticated_agent (-32001), whatever the token', async () => {
    const { client } = await sessions.connect(url(), await mint('ann'));
    const spoof = await rpcError(
      client,
      'index_status',
      {},
      { ...META, authenticated_agent: 'root' },
    );
    expect(spoof.code).toBe(CONTEXT_AUTH_ERROR);
    expect(spoof.message).toMatch(/^_meta\.authenticated_agent cannot be set by the caller/);
    const off = await sessions.start(
      { apiToken: null },
      { embedder: null, codeRoots: [project.root] },
    );
    const open = await sessions.connect(`${off.base}/api/mcp/context`, null);
    expect((await rpcError(open.client, 'list_rules', {}, { authenticated_agent: 'x' })).code).toBe(
      CONTEXT_AUTH_ERROR,
    );
    // With auth off a token is not checked and names nobody.
    expect(await agentOf(open.client, { token: 'anything' })).toBeUndefined();
  });

  it('a hybrid server forwards with its token as the bearer; the remote records the agent', async () => {
    const local = await contextCore(project);
    const h = await hybrid(local.core, 'server-hybrid', url(), await mint('eve'));
    try {
      const r = await callContext(h.client, 'index_status', {});
      expect(r.meta?.[PROVENANCE_META_KEY]).toMatchObject({
        authenticated_agent: 'eve',
        machine_id: 'test-host',
      });
      const spoof = await rpcError(h.client, 'index_status', {}, { authenticated_agent: 'root' });
      expect(spoof.code).toBe(CONTEXT_AUTH_ERROR);
      const bad = await hybrid(local.core, 'server-hybrid', url(), 'wrong-token');
      expect(await rpcError(bad.client, 'index_status', {})).toEqual({
        code: CONTEXT_AUTH_ERROR,
        message: expect.stringMatching(/^the remote .* refused the token \(HTTP 401\)/) as string,
      });
      await bad.close();
    } finally {
      await h.close();
      await local.close();
    }
  });
});
