// allow_always grants belong to the principal the server authenticated (a bound agent), never
// to the client's self-reported name: a second client claiming the same name waits; an unbound
// caller's call cannot be granted; a bound agent's grant follows it into new sessions (another
// OS process too); revoking (the CLI, another process) or expiry stops it on the next call.
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { GrantRefusedError } from '../../src/broker/index.js';
import type { Core } from '../../src/core/index.js';
import { InvalidInputError } from '../../src/shared/errors.js';
import { connectStdio } from '../concurrency/spawn.js';
import { callErr, callOk, ROOT } from '../helpers.js';
import { lastCallSteps, pendingApproval, runCli, toolsHarness } from './helpers.js';

const harness = toolsHarness();
const stdioClosers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of stdioClosers.splice(0)) await close();
  await harness.closeAll();
});

type Client = Awaited<ReturnType<Awaited<ReturnType<typeof harness.open>>['connect']>>;

/** One delete_path call that waits; `decide` settles it the way the test says. */
async function granted(core: Core, client: Client, path: string): Promise<string> {
  const call = callOk(client, 'delete_path', { path });
  const pending = await pendingApproval(core, 'delete_path');
  await core.broker.decide(pending.id, 'allow_always', 'alice');
  await call;
  return pending.id;
}

/** Asserts the client's next delete_path waits for a human; denies it so the call ends. */
async function waits(core: Core, client: Client): Promise<void> {
  const call = callErr(client, 'delete_path', { path: '/must-wait' });
  const pending = await pendingApproval(core, 'delete_path');
  await core.broker.decide(pending.id, 'deny', 'test');
  expect((await call).meta?.['denied']).toMatchObject({ reason: 'approval_denied' });
}

describe('grants belong to an authenticated principal', () => {
  it('an unbound caller cannot get one, so a second client with its name still waits', async () => {
    const { core, connect } = await harness.open();
    const first = await connect();
    const call = callOk(first, 'delete_path', { path: '/a' });
    const pending = await pendingApproval(core);
    expect(pending).toMatchObject({ caller: 'client:cairn-test', principal: null });
    const refused = core.broker.decide(pending.id, 'allow_always', 'alice');
    await expect(refused).rejects.toBeInstanceOf(GrantRefusedError);
    await expect(refused).rejects.toThrow(
      `approval ${pending.id}: client:cairn-test is an unbound session`,
    );
    // Refused, not decided: the human can still approve it once.
    expect((await core.broker.getApproval(pending.id)).status).toBe('pending');
    await core.broker.decide(pending.id, 'allow_once', 'alice');
    await call;
    expect(await core.broker.listGrants({ status: 'all' })).toEqual([]);
    // Another process calling itself the same client inherits nothing.
    await waits(core, await connect());
    await waits(core, first);
  });

  it("a bound agent's grant applies to a new session of that agent, in another process", async () => {
    const { core, dbPath, connect } = await harness.open();
    const ops = await connect({ scopeAgentId: 'ops' });
    const approvalId = await granted(core, ops, '/a');
    const grants = await core.broker.listGrants();
    expect(grants).toEqual([
      expect.objectContaining({
        ...{ principal: 'agent:ops', tool: 'delete_path', status: 'active', approvalId },
        ...{ grantedBy: 'alice', expiresAt: null, revokedAt: null },
      }),
    ]);
    await callOk(await connect({ scopeAgentId: 'ops' }), 'delete_path', { path: '/b' });
    expect(await lastCallSteps(core)).toContainEqual(['approval', 'granted']);
    const stdio = await connectStdio({
      ...{ bin: join(ROOT, 'bin/cairn-mcp-tools.js'), what: 'tools', clientName: 'other' },
      ...{ db: dbPath, args: ['--agent', 'ops'] },
      env: { CAIRN_HOME: join(dbPath, '..', 'home'), CAIRN_LOG_LEVEL: 'warn' },
    });
    stdioClosers.push(() => stdio.client.close());
    await callOk(stdio.client, 'delete_path', { path: '/c' });
    const steps = await lastCallSteps(core);
    expect(steps).toContainEqual(['approval', 'granted']);
    // Other principals are not covered: another agent, an unbound client.
    await waits(core, await connect({ scopeAgentId: 'dev' }));
    await waits(core, await connect());
    expect(await core.broker.listApprovals()).toHaveLength(3);
  });

  it('a grant revoked from the CLI (another process) stops applying on the next call', async () => {
    const { core, dbPath, connect } = await harness.open();
    const ops = await connect({ scopeAgentId: 'ops' });
    await granted(core, ops, '/a');
    await callOk(ops, 'delete_path', { path: '/b' });
    const list = await runCli(dbPath, ['approvals', 'grants']);
    const [grant] = await core.broker.listGrants();
    expect(list.stdout).toContain(
      `${grant?.id ?? '?'}  active  delete_path  agent:ops  until revoked`,
    );
    const run = await runCli(dbPath, ['approvals', 'revoke', grant?.id ?? '?', '--by', 'bob']);
    expect(run).toMatchObject({
      code: 0,
      stdout: `${grant?.id} revoked · delete_path for agent:ops\n`,
    });
    await waits(core, ops);
    expect((await runCli(dbPath, ['approvals', 'grants'])).stdout).toBe('no grants\n');
    const revoked = await runCli(dbPath, ['approvals', 'grants', '--status', 'revoked', '--json']);
    expect(JSON.parse(revoked.stdout)).toEqual([
      expect.objectContaining({ id: grant?.id, status: 'revoked', revokedBy: 'bob' }),
    ]);
    const again = await runCli(dbPath, ['approvals', 'revoke', grant?.id ?? '?']);
    expect(again).toMatchObject({ code: 1 });
    expect(again.stderr).toContain(`grant ${grant?.id} is already revoked`);
    const audit = await core.broker.listAudit({ step: 'grant' });
    expect(audit.entries).toEqual([
      expect.objectContaining({ caller: 'agent:ops', tool: 'delete_path', outcome: 'revoked' }),
    ]);
  });

  it('an expired grant stops applying; granting again renews the same grant', async () => {
    let now = 1_700_000_000_000;
    const { core, connect } = await harness.open({ clock: () => now });
    const ops = await connect({ scopeAgentId: 'ops' });
    const call = callOk(ops, 'delete_path', { path: '/a' });
    const pending = await pendingApproval(core);
    const past = core.broker.decide(pending.id, 'allow_always', 'alice', { grantExpiresAt: now });
    await expect(past).rejects.toBeInstanceOf(InvalidInputError);
    await core.broker.decide(pending.id, 'allow_always', 'alice', { grantExpiresAt: now + 60_000 });
    await call;
    now += 59_999;
    await callOk(ops, 'delete_path', { path: '/b' });
    expect(await lastCallSteps(core)).toContainEqual(['approval', 'granted']);
    now += 1;
    const [grant] = await core.broker.listGrants({ status: 'expired' });
    expect(grant).toMatchObject({ principal: 'agent:ops', expiresAt: now });
    expect(await core.broker.listGrants()).toEqual([]);
    await waits(core, ops);
    await granted(core, ops, '/c');
    const renewed = await core.broker.listGrants({ status: 'all' });
    expect(renewed).toEqual([expect.objectContaining({ id: grant?.id, status: 'active' })]);
  });

  it('the CLI refuses --always for an unbound caller and grants until --expires', async () => {
    const { core, dbPath, connect } = await harness.open();
    const call = callOk(await connect(), 'delete_path', { path: '/a' });
    const pending = await pendingApproval(core);
    const refused = await runCli(dbPath, ['approvals', 'approve', pending.id, '--always']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'cannot get an allow_always grant; approve it once or deny it',
    );
    await runCli(dbPath, ['approvals', 'approve', pending.id]);
    await call;

    const ops = await connect({ scopeAgentId: 'ops' });
    const second = callOk(ops, 'delete_path', { path: '/b' });
    const bound = await pendingApproval(core);
    const before = Date.now();
    const args = ['approvals', 'approve', bound.id, '--always', '--expires', '2h'];
    const run = await runCli(dbPath, args);
    const after = Date.now();
    expect(run.stdout).toContain('granted: delete_path for agent:ops, until ');
    await second;
    const [grant] = await core.broker.listGrants();
    expect(grant?.expiresAt).toBeGreaterThanOrEqual(before + 7_200_000);
    expect(grant?.expiresAt).toBeLessThanOrEqual(after + 7_200_000);
    const bad = await runCli(dbPath, [
      'approvals',
      'approve',
      'x',
      '--always',
      '--expires',
      'soon',
    ]);
    expect(bad.code).toBe(2);
  });
});
