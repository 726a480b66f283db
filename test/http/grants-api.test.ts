// Grants over REST against a `cairn serve` child while the tools server runs in this process
// on the same database: POST /api/approvals/:id grants allow_always (with an expiry) to a bound
// agent and refuses it (409) for an unbound caller; GET /api/approvals/grants lists, and
// DELETE /api/approvals/grants/:id revokes, after which the agent's next call waits again.
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { createBroker, type Grant } from '../../src/broker/index.js';
import type { Core } from '../../src/core/index.js';
import { createToolsServer } from '../../src/mcp/index.js';
import { callErr, callOk, linkedClient, tempCore, tempDir } from '../helpers.js';
import { FAST, pendingApproval } from '../tools/helpers.js';
import { apiToken } from '../web/browser.js';
import { spawnServe } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The fields of the answers this test reads. */
interface Answer {
  message?: string;
  grants?: Grant[];
  grant?: Grant;
}

type Rest = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; json: Answer }>;

/** A serve child on its own database, and a core (the tools server's) on the same file. */
async function setUp(): Promise<{ core: Core; rest: Rest }> {
  const dir = tempDir('cairn-grants-');
  cleanups.push(() => Promise.resolve(dir.cleanup()));
  const dbPath = join(dir.path, 'cairn.db');
  const serve = await spawnServe(['--db', dbPath]);
  cleanups.push(() => serve.cleanup());
  const t = await tempCore({ dbPath, embedder: null });
  cleanups.push(() => t.core.close());
  const core: Core = { ...t.core, broker: createBroker(t.core.store, { config: FAST }) };
  const token = apiToken(serve);
  const rest: Rest = async (method, path, body) => {
    const res = await fetch(`${serve.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Answer };
  };
  return { core, rest };
}

async function connect(core: Core, scopeAgentId?: string) {
  const client = await linkedClient(createToolsServer(core, { scopeAgentId }));
  cleanups.push(() => client.close());
  return client;
}

describe('grants over REST (another process)', () => {
  it('grants with an expiry, refuses an unbound caller, lists and revokes', async () => {
    const { core, rest } = await setUp();
    const unbound = await connect(core);
    const first = callOk(unbound, 'delete_path', { path: '/a' });
    const a = await pendingApproval(core);
    const refused = await rest('POST', `/api/approvals/${a.id}`, { decision: 'allow_always' });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toContain('client:cairn-test is an unbound session');
    expect((await rest('POST', `/api/approvals/${a.id}`, { decision: 'allow_once' })).status).toBe(
      200,
    );
    await first;

    const ops = await connect(core, 'ops');
    const second = callOk(ops, 'delete_path', { path: '/b' });
    const b = await pendingApproval(core);
    expect(b.principal).toBe('agent:ops');
    const url = `/api/approvals/${b.id}`;
    const past = await rest('POST', url, { decision: 'allow_always', expiresAt: 1000 });
    expect(past).toMatchObject({
      status: 400,
      json: { message: 'expiresAt must be in the future' },
    });
    const once = await rest('POST', url, { decision: 'allow_once', expiresAt: Date.now() + 1e6 });
    expect(once.status).toBe(400);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    const ok = await rest('POST', url, { decision: 'allow_always', expiresAt: until });
    expect(ok.status).toBe(200);
    await second;
    await callOk(ops, 'delete_path', { path: '/c' });

    const listed = await rest('GET', '/api/approvals/grants');
    const grants = listed.json.grants ?? [];
    expect(grants).toEqual([
      expect.objectContaining({ principal: 'agent:ops', tool: 'delete_path', status: 'active' }),
    ]);
    expect(grants[0]?.expiresAt).toBe(new Date(Date.parse(until)).toISOString());
    const id = grants[0]?.id ?? '?';
    const revoked = await rest('DELETE', `/api/approvals/grants/${id}?by=carol`);
    expect(revoked.json.grant).toMatchObject({ id, status: 'revoked', revokedBy: 'carol' });
    // The tools server (this process) sees the revocation on the very next call.
    const third = callErr(ops, 'delete_path', { path: '/d' });
    const c = await pendingApproval(core);
    await rest('POST', `/api/approvals/${c.id}`, { decision: 'deny' });
    expect((await third).meta?.['denied']).toMatchObject({ reason: 'approval_denied' });

    expect((await rest('GET', '/api/approvals/grants')).json.grants).toEqual([]);
    const all = await rest('GET', '/api/approvals/grants?status=revoked');
    expect(all.json.grants).toHaveLength(1);
    expect((await rest('DELETE', `/api/approvals/grants/${id}`)).status).toBe(409);
    expect((await rest('DELETE', '/api/approvals/grants/nope')).status).toBe(404);
    expect((await rest('GET', '/api/approvals/grants?status=bogus')).status).toBe(400);
    expect((await rest('POST', '/api/approvals/grants')).status).toBe(405);
  });
});
