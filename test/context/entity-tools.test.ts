// The project and entity tools of cairn-context through a real SDK client: every resource's
// create/get/update/list/delete (and release), referential integrity naming the field the
// caller wrote, cross-parent references, dependency cycles, deletes refused with dependents
// named, board links, api keys shown once and stored hashed, honest lists, hostile inputs.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { hashSecret } from '../../src/entity/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { callErr, callInvalid, linkedClient } from '../helpers.js';
import { type Caller, callerOf, roundTrip, STEPS } from './entity-fixtures.js';
import { contextCore, makeProject } from './fixtures.js';

type Row = Record<string, unknown>;

const reason = (meta: Row | undefined): unknown =>
  (meta?.['denied'] as Row | undefined)?.['reason'];

describe('cairn-context: the project and entity tools', () => {
  let core: Core;
  let client: Client;
  let call: Caller;
  let close: () => Promise<void>;

  beforeEach(async () => {
    const project = makeProject();
    const t = await contextCore(project);
    core = t.core;
    client = await linkedClient(createContextServer(core), 'test-agent');
    call = callerOf(client);
    close = async () => {
      await client.close();
      await t.close();
      project.dir.cleanup();
    };
  });
  afterEach(() => close());

  const create = async (tool: string, resource: string, args: Row): Promise<string> =>
    ((await call(tool, { action: 'create', resource, ...args }))['record'] as { id: string }).id;

  it('creates, gets, updates, lists and deletes every resource of both tools', async () => {
    const seen = await roundTrip(call);
    const keys = STEPS.map((s) => s.key);
    expect(Object.keys(seen.ids)).toEqual(keys);
    expect(seen.listed).toEqual(keys);
    expect(seen.deleted).toEqual([...keys].reverse());
    expect(seen.updated).toEqual(
      STEPS.filter((s) => Object.keys(s.update).length > 0).map(
        (s) => `${s.key}.${Object.keys(s.update)[0]}`,
      ),
    );
    expect(seen.refusedParent).toMatch(
      /^entity delete org: org \S+ cannot be deleted: \d+ rows depend on it — /,
    );
    expect(seen.createdBy).toBe('test-agent');
    const left = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM entity_orgs');
    expect(left?.n).toBe(0);
  });

  it('names the missing parent and the field the caller wrote it in', async () => {
    const viaScope = await callErr(client, 'entity', {
      action: 'create',
      resource: 'branch',
      repository_id: 'r-nope',
      data: { name: 'main' },
    });
    expect(viaScope.text).toBe(
      'repository_id: no repository has id r-nope (create it first, or check the id)',
    );
    expect(reason(viaScope.meta)).toBe('missing_reference');
    const viaData = await callErr(client, 'entity', {
      action: 'create',
      resource: 'review',
      data: { plan_version_id: 'v-nope', reviewer: 'eve' },
    });
    expect(viaData.text).toMatch(/^data\.plan_version_id: no version has id v-nope/);
    const noProject = await callErr(client, 'project', {
      action: 'create',
      resource: 'issue',
      project_id: 'ghost',
      data: { title: 't' },
    });
    expect(noProject.text).toMatch(/^project_id: no project has id ghost/);
    const listGhost = await callErr(client, 'project', {
      action: 'list',
      resource: 'issue',
      project_id: 'ghost',
    });
    expect(listGhost.text).toBe('project ghost not found');
    expect(
      await callInvalid(client, 'entity', {
        action: 'create',
        resource: 'branch',
        data: { name: 'main' },
      }),
    ).toBe(
      'invalid args: data.repository_id: is required to create a branch (or pass repository_id)',
    );
  });

  it('refuses references across parents: a worktree on another repository’s branch, a label of another org', async () => {
    const r1 = await create('entity', 'repository', { data: { name: 'a' } });
    const r2 = await create('entity', 'repository', { data: { name: 'b' } });
    const b2 = await create('entity', 'branch', { repository_id: r2, data: { name: 'dev' } });
    const cross = await callErr(client, 'entity', {
      action: 'create',
      resource: 'worktree',
      repository_id: r1,
      data: { path: '/w1', branch_id: b2 },
    });
    expect(cross.text).toContain(
      `data.branch_id: branch ${b2} has repository_id ${r2}, but this worktree has repository_id ${r1}`,
    );
    expect(reason(cross.meta)).toBe('cross_parent');
    const w1 = await create('entity', 'worktree', { repository_id: r1, data: { path: '/w1' } });
    const moved = await callErr(client, 'entity', {
      action: 'update',
      resource: 'worktree',
      id: w1,
      data: { branch_id: b2 },
    });
    expect(reason(moved.meta)).toBe('cross_parent');
    const [o1, o2] = [
      await create('entity', 'org', { data: { name: 'o1' } }),
      await create('entity', 'org', { data: { name: 'o2' } }),
    ];
    const issue = await create('entity', 'issue', { org_id: o1, data: { title: 't' } });
    const label = await create('entity', 'label', { org_id: o2, data: { name: 'bug' } });
    const mixed = await callErr(client, 'entity', {
      action: 'create',
      resource: 'label_assignment',
      issue_id: issue,
      label_id: label,
    });
    expect(mixed.text).toContain('a label_assignment takes a label of the issue’s org');
    expect(
      await callInvalid(client, 'entity', {
        action: 'update',
        resource: 'worktree',
        id: w1,
        data: { repository_id: r2 },
      }),
    ).toBe(
      'invalid args: data.repository_id: cannot change: it is set when the worktree is created (create another instead)',
    );
    const wrongParent = await callErr(client, 'entity', {
      action: 'get',
      resource: 'worktree',
      id: w1,
      repository_id: r2,
    });
    expect(wrongParent.text).toBe(
      `worktree ${w1} is not in repository_id ${r2} (its repository_id is ${r1})`,
    );
  });

  it('refuses dependency cycles between issues and phases, naming the cycle', async () => {
    await call('project', { action: 'create', resource: 'project', project_id: 'p' });
    const phase = await create('project', 'phase', { project_id: 'p', data: { name: 'one' } });
    const a = await create('project', 'issue', { project_id: 'p', data: { title: 'a' } });
    const b = await create('project', 'issue', { project_id: 'p', data: { title: 'b' } });
    const dep = (from: string, to: string) => ({
      action: 'create',
      resource: 'dependency',
      project_id: 'p',
      data: { from_id: from, depends_on_id: to },
    });
    await call('project', dep(a, b));
    await call('project', dep(b, phase));
    const cycle = await callErr(client, 'project', dep(phase, a));
    expect(cycle.text).toBe(
      `dependency refused: it would close a cycle ${phase} → ${a} → ${b} → ${phase} (each depends on the next)`,
    );
    expect(reason(cycle.meta)).toBe('cycle');
    const again = await callErr(client, 'project', dep(a, b));
    expect(again.text).toMatch(/^a dependency with from_id .* already exists/);
    const list = await call('project', { action: 'list', resource: 'dependency', project_id: 'p' });
    expect(list['matching']).toBe(2);
    await call('project', { action: 'create', resource: 'project', project_id: 'q' });
    const c = await create('project', 'issue', { project_id: 'q', data: { title: 'c' } });
    const across = await callErr(client, 'project', dep(a, c));
    expect(across.text).toContain(
      `issue ${c} has project_id q, but this dependency has project_id p`,
    );
  });

  it('refuses a delete others depend on, naming up to five per kind and the count', async () => {
    const repo = await create('entity', 'repository', { data: { name: 'r' } });
    const branches: string[] = [];
    for (let i = 0; i < 7; i++)
      branches.push(
        await create('entity', 'branch', { repository_id: repo, data: { name: `b${i}` } }),
      );
    await create('entity', 'worktree', { repository_id: repo, data: { path: '/w' } });
    const refused = await callErr(client, 'entity', {
      action: 'delete',
      resource: 'repository',
      id: repo,
    });
    expect(refused.text).toContain(
      `repository ${repo} cannot be deleted: 8 rows depend on it — 7 branch (repository_id): ${branches.slice(0, 5).join(', ')}, and 2 more; 1 worktree (repository_id): `,
    );
    expect(reason(refused.meta)).toBe('has_dependents');
    expect(
      (await call('entity', { action: 'list', resource: 'branch', repository_id: repo }))[
        'matching'
      ],
    ).toBe(7);
  });

  it('releases an assignment once; release is refused for what is not a lease', async () => {
    const repo = await create('entity', 'repository', { data: { name: 'r' } });
    const wt = await create('entity', 'worktree', { repository_id: repo, data: { path: '/w' } });
    const task = await core.board.createTask({ title: 'fix it' });
    const a = await create('entity', 'assignment', {
      worktree_id: wt,
      data: { agent: 'bob', task_id: task.id },
    });
    const busy = await callErr(client, 'entity', {
      action: 'create',
      resource: 'assignment',
      worktree_id: wt,
      data: { agent: 'eve' },
    });
    expect(busy.text).toContain(`already assigned to bob (assignment ${a})`);
    const first = await call('entity', { action: 'release', resource: 'assignment', id: a });
    expect(first).toMatchObject({
      released: true,
      record: { releasedBy: 'test-agent', taskId: task.id },
    });
    expect(typeof (first['record'] as Row)['releasedAt']).toBe('string');
    const second = await call('entity', { action: 'release', resource: 'assignment', id: a });
    expect(second['released']).toBe(false);
    expect(second['message']).toMatch(/was already released at .* by test-agent; nothing changed/);
    expect((second['record'] as Row)['releasedAt']).toBe((first['record'] as Row)['releasedAt']);
    await create('entity', 'assignment', { worktree_id: wt, data: { agent: 'eve' } });
    const notLease = await callErr(client, 'entity', {
      action: 'release',
      resource: 'worktree',
      id: wt,
    });
    expect(reason(notLease.meta)).toBe('not_a_lease');
    const noTask = await callErr(client, 'project', {
      action: 'create',
      resource: 'project',
      project_id: 'p',
    }).catch(() => undefined);
    expect(noTask).toBeUndefined();
    const badTask = await callErr(client, 'project', {
      action: 'create',
      resource: 'issue',
      project_id: 'p',
      data: { title: 't', task_id: 'T-nope' },
    });
    expect(badTask.text).toMatch(/^data\.task_id: no live board task has id T-nope/);
  });

  it('shows an api key secret once and stores only its sha256', async () => {
    const created = await client.callTool({
      name: 'entity',
      arguments: { action: 'create', resource: 'api_key', data: { name: 'ci' } },
    });
    const data = created.structuredContent as Row;
    const secret = String(data['secret']);
    expect(secret).toMatch(/^cairn_sk_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(created.content)).toContain(secret);
    const id = (data['record'] as { id: string }).id;
    const stored = await core.store.all<Row>('SELECT * FROM entity_api_keys');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.['key_hash']).toBe(hashSecret(secret));
    expect(JSON.stringify(stored)).not.toContain(secret);
    for (const args of [
      { action: 'get', id },
      { action: 'list' },
      { action: 'update', id, data: { name: 'x' } },
    ]) {
      const r = await client.callTool({
        name: 'entity',
        arguments: { resource: 'api_key', ...args },
      });
      expect(JSON.stringify(r)).not.toContain(secret);
      expect(JSON.stringify(r)).not.toContain(hashSecret(secret));
      expect(JSON.stringify(r)).toContain(secret.slice(0, 13));
    }
    expect(
      await callInvalid(client, 'entity', {
        action: 'create',
        resource: 'api_key',
        data: { name: 'x', key_hash: 'h' },
      }),
    ).toBe('invalid args: data.key_hash: is not a field of this action');
  });

  it('lists honestly and refuses unknown filter fields by name', async () => {
    const empty = await call('project', { action: 'list', resource: 'project', project_id: '*' });
    expect(empty).toMatchObject({ status: 'empty', matching: 0, stored: 0 });
    for (const p of ['a', 'b', 'c'])
      await call('project', { action: 'create', resource: 'project', project_id: p });
    expect(
      (await call('project', { action: 'list', resource: 'project', project_id: '*' }))['matching'],
    ).toBe(3);
    expect(
      (await call('project', { action: 'list', resource: 'project', project_id: 'b' }))['records'],
    ).toMatchObject([{ id: 'b', name: 'b' }]);
    await create('project', 'issue', { project_id: 'a', data: { title: 'x', status: 'done' } });
    const out = await call('project', {
      action: 'list',
      resource: 'issue',
      project_id: 'a',
      filters: { status: 'open' },
    });
    expect(out).toMatchObject({ status: 'filtered_out', stored: 1, matching: 0 });
    expect(
      (await call('project', { action: 'list', resource: 'issue', project_id: 'b' }))['status'],
    ).toBe('empty');
    expect(
      await callInvalid(client, 'project', {
        action: 'list',
        resource: 'issue',
        project_id: 'a',
        filters: { colour: 'x' },
      }),
    ).toMatch(
      /^invalid args: filters\.colour: not a field of issue to filter on \(fields: id, project_id, phase_id, title/,
    );
    expect(
      await callInvalid(client, 'entity', { action: 'list', resource: 'branch', team_id: 't' }),
    ).toBe('invalid args: team_id: does not apply to a branch (its scoping ids: repository_id)');
    expect(
      await callInvalid(client, 'project', {
        action: 'list',
        resource: 'issue',
        project_id: 'a',
        filters: { limit: 0 },
      }),
    ).toBe('invalid args: filters.limit: filters.limit must be at least 1');
  });

  it('finds rows by their unique scoping ids: a user by email, a member by team and user', async () => {
    const org = await create('entity', 'org', { data: { name: 'o' } });
    const user = await create('entity', 'user', { email: 'ann@example.com', org_id: org });
    const team = await create('entity', 'team', { org_id: org, data: { name: 't' } });
    await create('entity', 'team_member', { team_id: team, user_id: user });
    const byEmail = await call('entity', {
      action: 'get',
      resource: 'user',
      email: 'ann@example.com',
    });
    expect((byEmail['record'] as Row)['id']).toBe(user);
    const dup = await callErr(client, 'entity', {
      action: 'create',
      resource: 'team_member',
      team_id: team,
      user_id: user,
    });
    expect(dup.text).toMatch(/already exists/);
    await call('entity', {
      action: 'delete',
      resource: 'team_member',
      team_id: team,
      user_id: user,
    });
    expect(
      (await call('entity', { action: 'list', resource: 'team_member', team_id: team }))['status'],
    ).toBe('empty');
    expect(await callInvalid(client, 'entity', { action: 'get', resource: 'team' })).toBe(
      'invalid args: id: is required to get a team',
    );
    const missing = await callErr(client, 'entity', {
      action: 'get',
      resource: 'user',
      email: 'bob@example.com',
    });
    expect(missing.text).toBe('no user with email bob@example.com');
  });

  it('refuses hostile and malformed input as invalid args naming the field', async () => {
    await call('project', { action: 'create', resource: 'project', project_id: 'p' });
    const bad: [Row, string][] = [
      [
        { action: 'create', resource: 'nope', project_id: 'p' },
        'invalid args: resource: resource must be one of project, phase, issue, dependency, decision',
      ],
      [
        { action: 'release', resource: 'issue', project_id: 'p' },
        'invalid args: action: action must be one of create, get, update, list, delete',
      ],
      [
        { action: 'create', resource: 'project', project_id: 'a\u0000b' },
        'invalid args: project_id: project_id must not contain control characters',
      ],
      [
        { action: 'create', resource: 'project', project_id: 'p', data: { name: 5 } },
        'invalid args: data.name: data.name must be a string',
      ],
      [
        { action: 'create', resource: 'project', project_id: 'p', data: [] },
        'invalid args: data: data must be an object',
      ],
      [
        { action: 'create', resource: 'project', project_id: 'p', data: { status: 'gone' } },
        'invalid args: data.status: data.status must be one of active, paused, done, archived',
      ],
      [
        { action: 'create', resource: 'issue', project_id: 'p', data: { id: 'x', title: 't' } },
        'invalid args: data.id: is not used by create (ids are generated)',
      ],
      [
        { action: 'get', resource: 'issue', project_id: 'p' },
        'invalid args: data.id: is required to get an issue',
      ],
    ];
    for (const [args, text] of bad) expect(await callInvalid(client, 'project', args)).toBe(text);
    expect(
      await callInvalid(client, 'project', {
        action: 'create',
        resource: 'project',
        project_id: 'x'.repeat(300),
      }),
    ).toBe('invalid args: project_id: project_id is longer than 256 characters');
    await call('project', {
      action: 'create',
      resource: 'project',
      project_id: "p'; DROP TABLE projects; --",
    });
    expect(
      (await call('project', { action: 'list', resource: 'project', project_id: '*' }))['matching'],
    ).toBe(2);
    expect(
      await callInvalid(client, 'entity', {
        action: 'create',
        resource: 'org',
        id: 'mine',
        data: { name: 'o' },
      }),
    ).toBe('invalid args: id: is not used by create (ids are generated)');
    expect(
      await callInvalid(client, 'entity', { action: 'update', resource: 'org', id: 'o', data: {} }),
    ).toBe('invalid args: data: names no field to change (fields: name, description)');
  });
});
