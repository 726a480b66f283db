// The dashboard's sessions REST over a real HTTP service: the list (filters, empty vs
// filtered_out, 400 naming a bad filter), one session with its timeline (tool calls, the
// delegation, observations) and summary, summarize with the cookie and CSRF token (written,
// then unchanged), and 404 for an unknown session; bearer-less requests refused.
import { afterEach, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { httpSessions, loginSession as login, TOKEN } from './helpers.js';

const sessions = httpSessions();
afterEach(() => sessions.closeAll());

const bearer = { authorization: `Bearer ${TOKEN}` };
type Row = Record<string, unknown>;

/** Session `s` (worker, two calls, one failed, a delegation to `c`, a note) and `r` (reviewer). */
async function seed(core: Core): Promise<void> {
  const p = { model_id: 'm-1', operator_id: 'ann' };
  await core.sessions.create({
    id: 's',
    data: { agent_type: 'worker', title: 'build' },
    provenance: p,
  });
  await core.sessions.create({ id: 'r', data: { agent_type: 'reviewer' }, provenance: p });
  await core.sessions.logToolCall('s', { tool_name: 'bash', error: 'exit 1' }, p);
  await core.sessions.logToolCall('s', { tool_name: 'edit', args: { path: 'a.ts' } }, p);
  await core.sessions.logDelegation('s', { child_session_id: 'c', task: 'review' }, p);
  await core.observations.store({
    type: 'observation',
    content: 'needs node 20',
    sessionId: 's',
    provenance: p,
  });
}

describe('sessions REST for the dashboard', () => {
  it('lists recent sessions with filters and says why a list is empty', async () => {
    const svc = await sessions.start();
    const get = async (q = '') => {
      const res = await fetch(`${svc.base}/api/sessions${q}`, { headers: bearer });
      return { status: res.status, body: (await res.json()) as Row };
    };
    expect((await get()).body).toMatchObject({ status: 'empty', sessions: [], stored: 0 });
    await seed(svc.core);
    const all = await get();
    expect(all.status).toBe(200);
    expect((all.body['sessions'] as Row[]).map((s) => s['id']).sort()).toEqual(['c', 'r', 's']);
    const workers = await get('?agent_type=worker');
    expect(workers.body['sessions']).toMatchObject([
      { id: 's', modelId: 'm-1', counts: { toolCalls: 2, errors: 1, delegations: 1 } },
    ]);
    expect((await get('?status=failed')).body).toMatchObject({ status: 'filtered_out', stored: 3 });
    expect((await get('?limit=1')).body).toMatchObject({ truncated: true, matching: 3 });
    const bad = await get('?status=done');
    expect(bad.status).toBe(400);
    expect(bad.body['message']).toMatch(/^status: status must be one of/);
    expect((await get('?limit=0')).status).toBe(400);
    expect((await fetch(`${svc.base}/api/sessions`)).status).toBe(401);
  });

  it('shows one session with its timeline, and summarizes it with the cookie and CSRF token', async () => {
    const svc = await sessions.start();
    await seed(svc.core);
    const one = async () =>
      (await (await fetch(`${svc.base}/api/sessions/s`, { headers: bearer })).json()) as Row;
    const before = await one();
    expect((before['timeline'] as Row[]).map((e) => e['kind'])).toEqual([
      'tool_call',
      'tool_call',
      'delegation',
      'observation',
    ]);
    expect(before['summary']).toBeNull();
    expect(before['children']).toMatchObject([{ id: 'c', parentSessionId: 's' }]);
    expect(typeof (before['session'] as Row)['startedAt']).toBe('string');

    const { cookie, csrf } = await login(svc);
    const url = `${svc.base}/api/sessions/s/summarize`;
    expect((await fetch(url, { method: 'POST', headers: { cookie } })).status).toBe(403);
    const post = () => fetch(url, { method: 'POST', headers: { cookie, 'x-cairn-csrf': csrf } });
    const first = (await (await post()).json()) as Row;
    expect(first).toMatchObject({ written: true, sessionId: 's' });
    expect(String(first['text'])).toContain('- bash (call 1): exit 1');
    const again = (await (await post()).json()) as Row;
    expect(again).toMatchObject({ written: false, memoryId: first['memoryId'] });
    const after = await one();
    expect(after['summary']).toMatchObject({ id: first['memoryId'], type: 'session' });
    expect(after['session']).toMatchObject({ summaryId: first['memoryId'] });

    const ghost = await fetch(`${svc.base}/api/sessions/ghost`, { headers: bearer });
    expect(ghost.status).toBe(404);
    expect(await ghost.json()).toEqual({
      error: 'not_found',
      message: 'session not found: ghost (start it with start_session)',
    });
    const ghostSum = await fetch(`${svc.base}/api/sessions/ghost/summarize`, {
      method: 'POST',
      headers: bearer,
    });
    expect(ghostSum.status).toBe(404);
    expect((await fetch(`${svc.base}/api/sessions/s?limit=x`, { headers: bearer })).status).toBe(
      400,
    );
    expect((await fetch(`${svc.base}/api/sessions/s/summarize`, { headers: bearer })).status).toBe(
      405,
    );
    expect((await fetch(`${svc.base}/api/sessions/s/other`, { headers: bearer })).status).toBe(404);
  });
});
