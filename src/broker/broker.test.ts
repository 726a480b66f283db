// Broker units over an in-memory store: config from the environment, appendAudit paging and
// filters, and approval decisions that only a pending, unexpired row accepts.
import { afterEach, describe, expect, it } from 'vitest';

import { NotFoundError } from '../shared/errors.js';
import { openSqliteStore, type Store } from '../store/index.js';
import { appendAudit, listAudit } from './audit.js';
import { createBroker } from './broker.js';
import { brokerConfigFromEnv, DEFAULT_BROKER_CONFIG } from './config.js';
import { ApprovalClosedError } from './errors.js';

let store: Store | undefined;
afterEach(() => store?.close());

describe('brokerConfigFromEnv', () => {
  it('uses defaults, reads CAIRN_* overrides and refuses bad numbers', () => {
    expect(brokerConfigFromEnv({})).toEqual(DEFAULT_BROKER_CONFIG);
    const c = brokerConfigFromEnv({
      CAIRN_APPROVAL_TTL_MS: '1000',
      CAIRN_TOOLS_BLOCKED_CALLERS: ' a, b ,,',
      CAIRN_TAVILY_URL: 'http://127.0.0.1:9',
    });
    expect(c).toMatchObject({
      approvalTtlMs: 1000,
      blockedCallers: ['a', 'b'],
      tavilyUrl: 'http://127.0.0.1:9',
    });
    expect(() => brokerConfigFromEnv({ CAIRN_CIRCUIT_THRESHOLD: '0' })).toThrow(/positive integer/);
    expect(() => brokerConfigFromEnv({ CAIRN_TOOLS_TIMEOUT_MS: 'soon' })).toThrow(
      /CAIRN_TOOLS_TIMEOUT_MS/,
    );
  });
});

describe('audit log', () => {
  it('appends rows (reason pulled from detail) and pages newest first with filters', async () => {
    store = await openSqliteStore(':memory:');
    for (let i = 0; i < 5; i++) {
      await appendAudit(store, {
        tool: i % 2 === 0 ? 'team_delegate' : 'echo',
        caller: 'ann',
        step: 'delegate',
        outcome: i === 4 ? 'dropped' : 'created',
        detail: i === 4 ? { reason: 'unknown_teammate' } : { taskId: `t${i}` },
      });
    }
    const first = await listAudit(store, { tool: 'team_delegate', limit: 2 });
    expect(first.entries.map((e) => e.outcome)).toEqual(['dropped', 'created']);
    expect(first.entries[0]).toMatchObject({ reason: 'unknown_teammate', callId: null });
    const rest = await listAudit(store, {
      tool: 'team_delegate',
      limit: 2,
      cursor: first.nextCursor ?? 0,
    });
    expect(rest).toMatchObject({ entries: [{ detail: { taskId: 't0' } }], nextCursor: null });
    expect((await listAudit(store, { outcome: 'dropped' })).entries).toHaveLength(1);
    expect((await listAudit(store, { until: 0 })).entries).toEqual([]);
  });
});

describe('approval decisions', () => {
  it('refuse unknown ids and rows that are no longer pending', async () => {
    store = await openSqliteStore(':memory:');
    let now = 1_000;
    const broker = createBroker(store, { clock: () => now, config: { approvalTtlMs: 100 } });
    await expect(broker.decide('nope', 'deny')).rejects.toBeInstanceOf(NotFoundError);
    const call = broker.call({ tool: 'delete_path', args: { path: '/x' }, caller: 'c' });
    let pending = await broker.listApprovals({ status: 'pending' });
    while (pending.length === 0) {
      await new Promise((r) => setTimeout(r, 5));
      pending = await broker.listApprovals({ status: 'pending' });
    }
    const id = pending[0]?.id ?? '';
    now += 100;
    await expect(broker.decide(id, 'allow_once')).rejects.toBeInstanceOf(ApprovalClosedError);
    await expect(call).rejects.toMatchObject({ reason: 'approval_expired' });
    expect(await broker.getApproval(id)).toMatchObject({ status: 'expired', decision: null });
  });
});
