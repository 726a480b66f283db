// Streamable HTTP sessions across three `cairn serve` replicas behind a proxy: sessions are
// sticky (kept in the process that opened them). Round robin lands a session's requests on the
// wrong replica, which answers 404 naming the replica that owns it; the sticky proxy, routing on
// the replica prefix of Mcp-Session-Id, carries whole SDK sessions over many calls.
import { afterEach, describe, expect, it } from 'vitest';

import { call, okData } from '../concurrency/spawn.js';
import { ACCEPT_BOTH, initializeBody, rpcMessages, TOKEN } from '../http/helpers.js';
import { type ReplicaSet, startReplicas } from './harness.js';

let set: ReplicaSet | undefined;
afterEach(async () => {
  await set?.dispose();
  set = undefined;
});

const headers = (session?: string): Record<string, string> => ({
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: ACCEPT_BOTH,
  ...(session === undefined
    ? {}
    : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }),
});

async function send(url: string, method: string, session?: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: headers(session),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { res, text };
}

const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const WRONG =
  /^session (r\d)\.[0-9a-f-]{36} lives on replica \1, not on this one \((r\d)\): MCP sessions are kept by the replica that opened them, so the load balancer must be sticky/;

// Three processes starting on a shared 2-core box can take a while: a wide per-test bound.
describe('MCP sessions over three replicas', { timeout: 180_000 }, () => {
  it('round robin: the next request lands on another replica, which answers 404 naming the owner', async () => {
    const s = (set = await startReplicas());
    const url = `${s.proxy.base}/api/mcp/tasks`;
    const init = await send(url, 'POST', undefined, initializeBody());
    expect(init.res.status).toBe(200);
    const owner = init.res.headers.get('cairn-replica');
    const session = init.res.headers.get('mcp-session-id') ?? '';
    expect(owner).toMatch(/^r[0-2]$/);
    expect(session.startsWith(`${owner}.`)).toBe(true);

    // Round robin sends the next two requests to the other two replicas.
    for (let i = 0; i < 2; i++) {
      const { res, text } = await send(url, 'POST', session, listTools);
      const answeredBy = res.headers.get('cairn-replica');
      expect(answeredBy).not.toBe(owner);
      expect(res.status).toBe(404);
      const [msg] = rpcMessages(res.headers.get('content-type'), text) as [
        { error: { code: number; message: string } },
      ];
      expect(msg.error.code).toBe(-32000);
      expect(msg.error.message).toMatch(WRONG);
      expect(msg.error.message).toContain(
        `lives on replica ${owner}, not on this one (${answeredBy})`,
      );
    }
    // GET (the SSE stream) and DELETE on another replica say the same.
    const other = s.replicas.find((r) => r.id !== owner);
    for (const method of ['GET', 'DELETE']) {
      const { res, text } = await send(`${other?.base ?? ''}/api/mcp/tasks`, method, session);
      expect(res.status).toBe(404);
      expect(text).toContain(`lives on replica ${owner}`);
    }
    // The owner still serves it.
    const mine = s.replicas.find((r) => r.id === owner);
    const served = await send(`${mine?.base ?? ''}/api/mcp/tasks`, 'POST', session, listTools);
    expect(served.res.status).toBe(200);
    expect(served.text).toContain('claim_task');
  });

  it('round robin: an SDK client fails to connect with the wrong-replica message, not a generic error', async () => {
    const s = (set = await startReplicas());
    // The SDK puts the 404's body in the message of the error it throws.
    await expect(s.connect(s.proxy.base, 'tasks')).rejects.toMatchObject({
      code: 404,
      message: expect.stringMatching(/lives on replica r\d, not on this one \(r\d\).*sticky/),
    });
    // A session id this replica issued itself but no longer has is the generic answer.
    const r0 = s.replicas[0];
    const { res, text } = await send(
      `${r0?.base ?? ''}/api/mcp/tasks`,
      'POST',
      'r0.gone',
      listTools,
    );
    expect(res.status).toBe(404);
    expect(text).toContain('No valid session; send an initialize request first.');
  });

  it('round robin: the backplane, served statelessly without a session, answers on every replica', async () => {
    const s = (set = await startReplicas());
    // tools/list, not get_status: that one's agent listing (COLLATE NOCASE) awaits the port.
    const list = { jsonrpc: '2.0', id: 7, method: 'tools/list' };
    const answeredBy = new Set<string | null>();
    for (let i = 0; i < 3; i++) {
      const { res, text } = await send(`${s.proxy.base}/mcp`, 'POST', undefined, list);
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      expect(text).toContain('"name":"register_agent"');
      answeredBy.add(res.headers.get('cairn-replica'));
    }
    expect(answeredBy).toEqual(new Set(['r0', 'r1', 'r2']));
  });

  it('sticky on the Mcp-Session-Id prefix: six SDK sessions over three replicas serve 20 calls each', async () => {
    const s = (set = await startReplicas({ mode: 'sticky' }));
    const task = await s.withCore((core) => core.board.createTask({ title: 'shared' }));
    const clients = [];
    for (let i = 0; i < 6; i++) clients.push(await s.connect(s.proxy.base, 'tasks', `agent-${i}`));

    const bodies = await Promise.all(
      clients.map(async (client, i) => {
        const mine: string[] = [];
        for (let n = 0; n < 20; n++) {
          const body = `agent-${i} note ${n}`;
          okData(
            await call(client, 'add_comment', { taskId: task.id, body, authorAgentId: `a${i}` }),
          );
          mine.push(body);
        }
        return mine;
      }),
    );
    // Every write from every replica is visible through any session.
    const seen = okData<{ comments: { body: string }[] }>(
      await call(clients[0] ?? (undefined as never), 'get_task', { taskId: task.id }),
    );
    expect(seen.comments.map((c) => c.body).sort()).toEqual(bodies.flat().sort());

    // Initializes were spread round robin; every later request went to its session's owner.
    const sessions = s.proxy.routed.filter((r) => r.session !== undefined);
    const owners = new Set(sessions.map((r) => r.session?.split('.')[0]));
    expect(owners).toEqual(new Set(['r0', 'r1', 'r2']));
    for (const r of sessions) expect(r.session?.startsWith(`${r.replica}.`)).toBe(true);
    expect(sessions.length).toBeGreaterThanOrEqual(6 * 21);
  });
});
