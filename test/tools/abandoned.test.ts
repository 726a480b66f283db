// A gated call whose caller is gone never runs: an HTTP client that goes away mid-wait, a
// Streamable HTTP session deleted, a stdio server that exits or is SIGKILLed while its call
// waits. Each approval ends `cancelled`, the audit says why, and a decision on it (REST, or
// the CLI as another OS process on the same database) is refused with that reason.
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { Approval, AuditEntry } from '../../src/broker/index.js';
import type { Core } from '../../src/core/index.js';
import { ROOT, tempDir } from '../helpers.js';
import { httpClient, rawRequest, type Running, startService, TOKEN } from '../http/helpers.js';
import { finishedTrail, pendingApproval, runCli } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Polls (bounded) until approval `id` reads `cancelled`; returns it. */
async function cancelledApproval(core: Core, id: string): Promise<Approval> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const a = await core.broker.getApproval(id);
    if (a.status === 'cancelled') return a;
    if (Date.now() > deadline) throw new Error(`approval ${id} is still ${a.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function started(): Promise<Running> {
  const svc = await startService();
  cleanups.push(() => svc.close());
  return svc;
}

const decide = (svc: Running, id: string, decision: string) =>
  rawRequest(`${svc.base}/api/approvals/${id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ decision }),
  });

/** The call's audit trail never reaches execution, and its approval step says why. */
async function expectCancelledTrail(core: Core, a: Approval, why: string): Promise<AuditEntry[]> {
  const rows = await finishedTrail(core, a.callId);
  expect(rows.map((r) => r.step)).not.toContain('execution');
  const cancelled = rows.find((r) => r.step === 'approval' && r.outcome === 'cancelled');
  expect(cancelled?.detail).toMatchObject({
    approvalId: a.id,
    reason: expect.stringContaining(why),
  });
  return rows;
}

describe('an abandoned approval over Streamable HTTP', () => {
  it('is cancelled when the HTTP client goes away mid-wait, and cannot be approved', async () => {
    const svc = await started();
    const { client, close } = await httpClient(`${svc.base}/api/mcp/tools`, TOKEN);
    const call = client.callTool({ name: 'delete_path', arguments: { path: '/srv/prod' } });
    call.catch(() => undefined);
    const pending = await pendingApproval(svc.core);
    // The client process is gone: its connections close, and nobody sends a DELETE.
    await close();
    const gone = await cancelledApproval(svc.core, pending.id);
    expect(gone.cancelReason).toContain('transport closed: the client closed the HTTP response');
    const refused = await decide(svc, pending.id, 'allow_once');
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.body)).toMatchObject({
      message: expect.stringContaining(`approval ${pending.id} was cancelled (transport closed`),
    });
    const trail = await expectCancelledTrail(svc.core, gone, 'transport closed');
    expect(trail.at(-1)).toMatchObject({ step: 'result', outcome: 'error' });
    // The dashboard's pending list (the REST default view) no longer shows it.
    const listed = await rawRequest(`${svc.base}/api/approvals`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(JSON.parse(listed.body)).toEqual({ approvals: [] });
  });

  it('is cancelled when the client deletes its session', async () => {
    const svc = await started();
    const { client, transport, close } = await httpClient(`${svc.base}/api/mcp/tools`, TOKEN);
    cleanups.push(close);
    const call = client.callTool({ name: 'delete_path', arguments: { path: '/srv/db' } });
    call.catch(() => undefined);
    const pending = await pendingApproval(svc.core);
    await transport.terminateSession();
    const gone = await cancelledApproval(svc.core, pending.id);
    expect(gone.cancelReason).toBe(
      'session ended: the client deleted its MCP session (HTTP DELETE)',
    );
    const refused = await decide(svc, pending.id, 'allow_always');
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.body).message).toContain('can no longer be approved or denied');
    await expectCancelledTrail(svc.core, gone, 'session ended');
  });
});

describe('an abandoned approval over stdio', () => {
  function spawnTools(db: string, home: string, leaseMs: number): StdioClientTransport {
    return new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'bin/cairn-mcp-tools.js'), '--db', db, '--agent', 'stdio-agent'],
      env: {
        CAIRN_HOME: home,
        CAIRN_EMBEDDINGS: 'none',
        CAIRN_APPROVAL_POLL_MS: '50',
        CAIRN_APPROVAL_LEASE_MS: String(leaseMs),
      },
      cwd: ROOT,
      stderr: 'pipe',
    });
  }

  async function pendingFromCli(db: string): Promise<Approval> {
    for (let i = 0; i < 200; i++) {
      const rows = JSON.parse((await runCli(db, ['approvals', 'list', '--json'])).stdout || '[]');
      const first = (rows as Approval[])[0];
      if (first !== undefined) return first;
    }
    throw new Error('no pending approval');
  }

  async function cancelledFromCli(db: string, id: string): Promise<Approval> {
    for (let i = 0; i < 200; i++) {
      const shown = JSON.parse((await runCli(db, ['approvals', 'show', id])).stdout) as Approval;
      if (shown.status === 'cancelled') return shown;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`approval ${id} was never cancelled`);
  }

  async function cancelAudit(db: string, id: string): Promise<AuditEntry[]> {
    const args = ['audit', '--step', 'approval', '--outcome', 'cancelled', '--json'];
    const page = JSON.parse((await runCli(db, args)).stdout) as { entries: AuditEntry[] };
    return page.entries.filter((e) => (e.detail as { approvalId?: string }).approvalId === id);
  }

  it('a SIGKILLed server: its lease lapses, another process refuses to approve', async () => {
    const dir = tempDir('cairn-abandoned-stdio-');
    cleanups.push(() => dir.cleanup());
    const db = join(dir.path, 'cairn.db');
    const transport = spawnTools(db, join(dir.path, 'home'), 1000);
    const client = new Client({ name: 'killed-test', version: '0.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const call = client.callTool({ name: 'delete_path', arguments: { path: '/srv/all' } });
    call.catch(() => undefined);
    const pending = await pendingFromCli(db);
    expect(Date.parse(String(pending.leaseUntil))).toBeGreaterThan(
      Date.parse(String(pending.createdAt)),
    );
    process.kill(transport.pid ?? 0, 'SIGKILL');

    const gone = await cancelledFromCli(db, pending.id);
    expect(gone.cancelReason).toContain('waiter process gone');
    expect((await runCli(db, ['approvals', 'list'])).stdout).toBe('no approvals\n');
    const refused = await runCli(db, ['approvals', 'approve', pending.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`approval ${pending.id} was cancelled (waiter process gone`);
    // The refusal wrote the cancellation down, once.
    const rows = await cancelAudit(db, pending.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.detail).toMatchObject({
      reason: expect.stringContaining('waiter process gone'),
    });
    const shown = await runCli(db, ['approvals', 'list', '--status', 'cancelled']);
    expect(shown.stdout).toContain('cancelled: waiter process gone');
    const executed = await runCli(db, ['audit', '--step', 'execution', '--json']);
    expect((JSON.parse(executed.stdout) as { entries: unknown[] }).entries).toEqual([]);
  });

  it('a server whose stdin closes cancels its waiting call before it exits', async () => {
    const dir = tempDir('cairn-abandoned-stdin-');
    cleanups.push(() => dir.cleanup());
    const db = join(dir.path, 'cairn.db');
    const transport = spawnTools(db, join(dir.path, 'home'), 60_000);
    const client = new Client({ name: 'leaving-test', version: '0.0.0' });
    await client.connect(transport);
    const call = client.callTool({ name: 'delete_path', arguments: { path: '/srv/tmp' } });
    call.catch(() => undefined);
    const pending = await pendingFromCli(db);
    await client.close();
    // Long before its 60 s lease could lapse: the exiting server wrote it down itself.
    const shown = JSON.parse((await runCli(db, ['approvals', 'show', pending.id])).stdout);
    expect(shown).toMatchObject({ status: 'cancelled', cancelReason: 'transport closed' });
    const refused = await runCli(db, ['approvals', 'deny', pending.id]);
    expect(refused.stderr).toContain('was cancelled (transport closed)');
    expect(await cancelAudit(db, pending.id)).toHaveLength(1);
  });
});
