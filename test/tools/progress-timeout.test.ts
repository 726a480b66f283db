// Waiting for a human must not lose to the client's request timeout: a waiting call sends
// progress only when the request carries a progressToken, and periodically; an SDK client
// that resets its timeout on progress outlives several timeouts and gets the result, while
// one that does not times out, and that timeout cancels the approval (nothing runs).
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import { ApprovalClosedError } from '../../src/broker/index.js';
import { createToolsServer } from '../../src/mcp/index.js';
import { textOf } from '../helpers.js';
import { finishedTrail, pendingApproval, toolsHarness } from './helpers.js';

const harness = toolsHarness();
afterEach(() => harness.closeAll());

/** Progress every 100 ms: a 1 s client timeout is ten progress intervals. */
const PROGRESS = { progressEveryMs: 100, approvalPollMs: 20 };
const TIMEOUT_MS = 1000;

/** Resolves once `test` holds, polling every 10 ms for at most `ms`. */
async function until(test: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('progress while a call waits for approval', () => {
  it('is sent only for a request with a progressToken, and periodically', async () => {
    const { core } = await harness.open({ config: PROGRESS });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createToolsServer(core);
    await server.connect(serverSide);
    const seen: JSONRPCMessage[] = [];
    clientSide.onmessage = (m) => void seen.push(m);
    await clientSide.start();
    const send = (m: JSONRPCMessage): Promise<void> => clientSide.send(m);
    const clientInfo = { name: 'raw', version: '0' };
    const init = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo };
    await send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init });
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = (id: number, path: string, meta?: Record<string, unknown>): Promise<void> =>
      send({
        ...{ jsonrpc: '2.0', id, method: 'tools/call' },
        params: { name: 'delete_path', arguments: { path }, ...(meta ? { _meta: meta } : {}) },
      });
    await call(2, '/no-token');
    await pendingApproval(core);
    await call(3, '/token', { progressToken: 'tok' });
    const progress = () =>
      seen.flatMap((m) =>
        'method' in m && m.method === 'notifications/progress' ? [m.params ?? {}] : [],
      );
    await until(() => progress().length >= 4);
    for (const a of await core.broker.listApprovals({ status: 'pending' })) {
      await core.broker.decide(a.id, 'allow_once');
    }
    await until(() => seen.filter((m) => 'result' in m).length === 3);
    const reports = progress();
    expect(reports.every((p) => p['progressToken'] === 'tok')).toBe(true);
    const values = reports.map((p) => Number(p['progress']));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    await server.close();
  });

  it('keeps a client with resetTimeoutOnProgress waiting past several timeouts', async () => {
    const { core, connect } = await harness.open({ config: PROGRESS });
    const client = await connect();
    let reports = 0;
    const started = Date.now();
    const call = client.callTool(
      { name: 'delete_path', arguments: { path: '/srv/a' } },
      undefined,
      {
        timeout: TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        onprogress: () => void reports++,
      },
    );
    const pending = await pendingApproval(core);
    await until(() => Date.now() - started >= 3.5 * TIMEOUT_MS);
    await core.broker.decide(pending.id, 'allow_once');
    const result = await call;
    expect(JSON.parse(textOf(result))).toMatchObject({ path: '/srv/a', deleted: false });
    expect(Date.now() - started).toBeGreaterThan(3 * TIMEOUT_MS);
    expect(reports).toBeGreaterThan(3);
  });

  it('without it the client times out, and the timeout cancels the approval', async () => {
    const { core, connect } = await harness.open({ config: PROGRESS });
    const client = await connect();
    const call = client.callTool(
      { name: 'delete_path', arguments: { path: '/srv/b' } },
      undefined,
      {
        timeout: TIMEOUT_MS,
        onprogress: () => undefined,
      },
    );
    const pending = await pendingApproval(core);
    const err: unknown = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(ErrorCode.RequestTimeout);
    let row = await core.broker.getApproval(pending.id);
    for (let i = 0; i < 500 && row.status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      row = await core.broker.getApproval(pending.id);
    }
    expect(row.status).toBe('cancelled');
    expect(row.cancelReason).toMatch(/^request cancelled: .*timed out/i);
    const late = core.broker.decide(pending.id, 'allow_once');
    await expect(late).rejects.toBeInstanceOf(ApprovalClosedError);
    await expect(late).rejects.toThrow(`approval ${pending.id} was cancelled (request cancelled`);
    const steps = (await finishedTrail(core, pending.callId)).map((e) => `${e.step}:${e.outcome}`);
    expect(steps).toContain('approval:cancelled');
    expect(steps).not.toContain('execution:ok');
  });
});
