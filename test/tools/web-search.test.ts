// web_search against a loopback stub standing in for Tavily (no real Tavily call is made
// here): the request it builds, and allow_always letting later calls skip the human.
import { afterEach, describe, expect, it } from 'vitest';

import { callOk } from '../helpers.js';
import { lastCallSteps, pendingApproval, toolsHarness } from './helpers.js';

const harness = toolsHarness();
afterEach(() => harness.closeAll());

describe('web_search', () => {
  it('POSTs the query to {CAIRN_TAVILY_URL}/search with the bearer key, after approval', async () => {
    const stub = await harness.stub();
    const { core, connect } = await harness.open({
      env: { TAVILY_API_KEY: 'tvly-secret' },
      config: { tavilyUrl: `${stub.url}/` },
    });
    const client = await connect({ scopeAgentId: 'researcher' });
    const first = callOk<{ results: unknown[] }>(client, 'web_search', {
      query: 'stone cairns',
      limit: 3,
    });
    const pending = await pendingApproval(core, 'web_search');
    expect(pending.reason).toContain('external side effect');
    expect(stub.requests).toEqual([]);
    await core.broker.decide(pending.id, 'allow_always', 'test');
    expect((await first).results).toEqual([
      {
        title: 'Cairn',
        url: 'https://example.com/cairn',
        content: 'A stack of stones.',
        score: 0.9,
      },
    ]);
    expect(stub.requests).toHaveLength(1);
    const req = stub.requests[0];
    expect(req).toMatchObject({ method: 'POST', url: '/search' });
    expect(req?.headers['authorization']).toBe('Bearer tvly-secret');
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.body).toEqual({ query: 'stone cairns', max_results: 3, search_depth: 'basic' });

    // allow_always: the same caller's next call runs without a new approval.
    await callOk(client, 'web_search', { query: 'again' });
    expect(stub.requests).toHaveLength(2);
    expect(await lastCallSteps(core)).toContainEqual(['approval', 'granted']);
    expect(await core.broker.listApprovals()).toHaveLength(1);
  });

  it('a grant is per caller: another caller still needs a human', async () => {
    const stub = await harness.stub();
    const { core, connect } = await harness.open({
      env: { TAVILY_API_KEY: 'k' },
      config: { tavilyUrl: stub.url },
    });
    const a = await connect({ scopeAgentId: 'a' });
    const call = callOk(a, 'web_search', { query: 'q' });
    await core.broker.decide((await pendingApproval(core)).id, 'allow_always');
    await call;
    const b = await connect({ scopeAgentId: 'b' });
    const bCall = callOk(b, 'web_search', { query: 'q' });
    const pending = await pendingApproval(core);
    expect(pending.caller).toBe('b');
    await core.broker.decide(pending.id, 'allow_once');
    await bCall;
  });
});
