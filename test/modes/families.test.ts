// The families that landed after the modes are placed and forwarded by name, with no code of
// their own: in server-hybrid (a context token as the bearer, an in-process remote), a session
// started, an observation stored, a project and a repository created through the local server
// live in the remote's store, with the token's agent and this machine's provenance; the local
// store has none of them.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { mintContextToken } from '../../src/auth/index.js';
import type { Core } from '../../src/core/index.js';
import { createContextServer, PROVENANCE_META_KEY } from '../../src/mcp/index.js';
import { callContext, contextCore, makeProject, type Project } from '../context/fixtures.js';
import { linkedClient } from '../helpers.js';
import { httpSessions, type Running, SECRET } from '../http/helpers.js';
import { type Hybrid, hybrid } from './hybrid.js';

describe('families forwarded by name (server-hybrid)', () => {
  let project: Project;
  let local: { core: Core; close(): Promise<void> };
  let svc: Running;
  let h: Hybrid;
  const sessions = httpSessions();
  const clients: Client[] = [];

  beforeEach(async () => {
    project = makeProject();
    local = await contextCore(project);
    svc = await sessions.start({}, { embedder: null, codeRoots: [project.root] });
    const token = await mintContextToken({ secret: SECRET, agent: 'eve' });
    h = await hybrid(local.core, 'server-hybrid', `${svc.base}/api/mcp/context`, token);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    await h.close();
    await sessions.closeAll();
    await local.close();
    project.dir.cleanup();
  });

  /** A stdio-only client straight on `core` (to look in one store). */
  const direct = async (core: Core): Promise<Client> => {
    const c = await linkedClient(createContextServer(core));
    clients.push(c);
    return c;
  };

  it('start_session and store_memory reach the remote store, recorded with the agent', async () => {
    const started = await callContext<{ session: { id: string } }>(h.client, 'start_session', {
      session_id: 'shared-1',
      data: { title: 'forwarded' },
    });
    expect(started.meta?.[PROVENANCE_META_KEY]).toMatchObject({
      authenticated_agent: 'eve',
      machine_id: 'test-host',
    });
    const stored = await callContext(h.client, 'store_memory', {
      resource: 'observation',
      session_id: 'shared-1',
      data: { content: 'the forwarder stored this' },
    });
    expect(stored.meta?.[PROVENANCE_META_KEY]).toMatchObject({ authenticated_agent: 'eve' });

    const there = await direct(svc.core);
    const got = await callContext(there, 'get_session', { session_id: 'shared-1' });
    expect(JSON.stringify(got.data)).toContain('forwarded');
    const listed = await there.callTool({
      name: 'list_memories',
      arguments: { session_id: 'shared-1' },
      _meta: { model_id: 'm', operator_id: 'ann' },
    });
    expect(listed.isError, JSON.stringify(listed)).toBeUndefined();
    expect(JSON.stringify(listed.structuredContent)).toContain('the forwarder stored this');

    const here = await direct(local.core);
    const none = await here.callTool({
      name: 'get_session',
      arguments: { session_id: 'shared-1' },
    });
    expect(none.isError).toBe(true);
  });

  it('project and entity writes reach the remote store, created by the token’s agent', async () => {
    await callContext(h.client, 'project', {
      action: 'create',
      resource: 'project',
      project_id: 'shared',
    });
    const repo = await callContext<{ record: { id: string; createdBy: string } }>(
      h.client,
      'entity',
      { action: 'create', resource: 'repository', project_id: 'shared', data: { name: 'a/b' } },
    );
    expect(repo.data.record.createdBy).toBe('eve');
    const there = await direct(svc.core);
    const listed = await callContext<{ records: { id: string }[] }>(there, 'entity', {
      action: 'list',
      resource: 'repository',
      project_id: 'shared',
    });
    expect(listed.data.records.map((r) => r.id)).toEqual([repo.data.record.id]);
    const here = await direct(local.core);
    const none = await callContext<{ status: string }>(here, 'project', {
      action: 'list',
      resource: 'project',
      project_id: '*',
    });
    expect(none.data.status).toBe('empty');
  });
});
