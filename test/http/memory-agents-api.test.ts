// The dashboard's memory and agents REST over a real HTTP service: scoped search, get, tag
// edits and soft deletes (404 outside the named scope); agents listed with their channels,
// rotated with the session cookie + CSRF; the agents' own /v1 API stays bearer-only.
import { afterEach, describe, expect, it } from 'vitest';

import { httpSessions, loginSession as login, TOKEN } from './helpers.js';

const sessions = httpSessions();
afterEach(() => sessions.closeAll());

const bearer = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

describe('memory REST', () => {
  it('searches, gets, tags and deletes within the named scope only', async () => {
    const svc = await sessions.start();
    const saved = await svc.core.memory.save({
      title: 'Team deploys',
      content: 'team one deploys on fridays',
      scope: { teamId: 't1' },
    });
    const id = saved.saved === 'fact' ? saved.fact.id : '';
    const m = `${svc.base}/api/memory`;
    const search = async (q: string) =>
      (
        (await (await fetch(`${m}/search?${q}`, { headers: bearer })).json()) as {
          results: Array<{ id: string }>;
        }
      ).results.map((r) => r.id);
    expect(await search('query=fridays&mode=fts')).toEqual([]);
    expect(await search('query=fridays&mode=fts&scopeTeamId=t1')).toEqual([id]);
    expect((await fetch(`${m}/items/${id}`, { headers: bearer })).status).toBe(404);
    const got = await fetch(`${m}/items/${id}?scopeTeamId=t1`, { headers: bearer });
    expect(await got.json()).toMatchObject({ item: { id, teamId: 't1' } });
    const tags = (scope: object) =>
      fetch(`${m}/items/${id}/tags`, {
        method: 'POST',
        headers: bearer,
        body: JSON.stringify({ tags: ['release'], ...scope }),
      });
    expect((await tags({ scopeTeamId: 't2' })).status).toBe(404);
    expect(await (await tags({ scopeTeamId: 't1' })).json()).toMatchObject({
      item: { tags: ['release'] },
    });
    expect((await fetch(`${m}/items/${id}`, { method: 'DELETE', headers: bearer })).status).toBe(
      404,
    );
    const del = await fetch(`${m}/items/${id}?scopeTeamId=t1`, {
      method: 'DELETE',
      headers: bearer,
    });
    expect(await del.json()).toEqual({ id, removed: 1 });
    expect(await search('query=fridays&mode=fts&scopeTeamId=t1')).toEqual([]);
    expect((await fetch(`${m}/search?query=`, { headers: bearer })).status).toBe(400);
  });
});

describe('agents REST for the dashboard', () => {
  it('lists agents with channels and rotates with the cookie and CSRF token', async () => {
    const svc = await sessions.start();
    await svc.core.backplane.register({ kind: 'operator' }, { nick: 'w1', channels: ['#ops'] });
    const { cookie, csrf } = await login(svc);
    const list = await fetch(`${svc.base}/api/agents`, { headers: { cookie } });
    expect(await list.json()).toMatchObject({
      agents: [{ nick: 'w1', active: false, channels: ['#ops'] }],
    });
    const rotate = `${svc.base}/api/agents/w1/rotate`;
    expect((await fetch(rotate, { method: 'POST', headers: { cookie } })).status).toBe(403);
    const ok = await fetch(rotate, { method: 'POST', headers: { cookie, 'x-cairn-csrf': csrf } });
    const { credentials } = (await ok.json()) as { credentials: { token: string } };
    const asAgent = await fetch(`${svc.base}/v1/agents`, {
      headers: { authorization: `Bearer ${credentials.token}` },
    });
    expect(asAgent.status).toBe(200);
    expect((await fetch(`${svc.base}/v1/agents`, { headers: { cookie } })).status).toBe(401);
    const revoke = await fetch(`${svc.base}/api/agents/w1/revoke`, {
      method: 'POST',
      headers: { cookie, 'x-cairn-csrf': csrf },
    });
    expect(await revoke.json()).toMatchObject({
      agent: { nick: 'w1', revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) },
    });
    const missing = await fetch(`${svc.base}/api/agents/nobody/revoke`, {
      method: 'POST',
      headers: bearer,
    });
    expect(missing.status).toBe(404);
  });
});
