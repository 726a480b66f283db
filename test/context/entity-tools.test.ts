// The project and entity tools through a real SDK client: release of an assignment (a lease,
// idempotent), board links, api keys shown once and stored hashed, honest lists and filters,
// rows found by unique scoping ids, hostile and malformed input refused naming the field.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { hashSecret } from '../../src/entity/index.js';
import { callErr, callInvalid } from '../helpers.js';
import { type EntityHarness, entityHarness, reason } from './entity-fixtures.js';

type Row = Record<string, unknown>;

describe('cairn-context: project and entity tools', () => {
  let t: EntityHarness;
  beforeEach(async () => (t = await entityHarness()));
  afterEach(() => t.close());

  it('releases an assignment once; release is refused for what is not a lease', async () => {
    const repo = await t.create('entity', 'repository', { data: { name: 'r' } });
    const wt = await t.create('entity', 'worktree', { repository_id: repo, data: { path: '/w' } });
    const task = await t.core.board.createTask({ title: 'fix it' });
    const a = await t.create('entity', 'assignment', {
      worktree_id: wt,
      data: { agent: 'bob', task_id: task.id },
    });
    const busy = await callErr(t.client, 'entity', {
      action: 'create',
      resource: 'assignment',
      worktree_id: wt,
      data: { agent: 'eve' },
    });
    expect(busy.text).toContain(`already assigned to bob (assignment ${a})`);
    const first = await t.call('entity', { action: 'release', resource: 'assignment', id: a });
    expect(first).toMatchObject({
      released: true,
      record: { releasedBy: 'test-agent', taskId: task.id },
    });
    expect(typeof (first['record'] as Row)['releasedAt']).toBe('string');
    const second = await t.call('entity', { action: 'release', resource: 'assignment', id: a });
    expect(second['released']).toBe(false);
    expect(second['message']).toMatch(/was already released at .* by test-agent; nothing changed/);
    expect((second['record'] as Row)['releasedAt']).toBe((first['record'] as Row)['releasedAt']);
    await t.create('entity', 'assignment', { worktree_id: wt, data: { agent: 'eve' } });
    const notLease = await callErr(t.client, 'entity', {
      action: 'release',
      resource: 'worktree',
      id: wt,
    });
    expect(reason(notLease.meta)).toBe('not_a_lease');
    const noTask = await callErr(t.client, 'project', {
      action: 'create',
      resource: 'project',
      project_id: 'p',
    }).catch(() => undefined);
    expect(noTask).toBeUndefined();
    const badTask = await callErr(t.client, 'project', {
      action: 'create',
      resource: 'issue',
      project_id: 'p',
      data: { title: 't', task_id: 'T-nope' },
    });
    expect(badTask.text).toMatch(/^data\.task_id: no live board task has id T-nope/);
  });

  it('shows an api key secret once and stores only its sha256', async () => {
    const created = await t.client.callTool({
      name: 'entity',
      arguments: { action: 'create', resource: 'api_key', data: { name: 'ci' } },
    });
    const data = created.structuredContent as Row;
    const secret = String(data['secret']);
    expect(secret).toMatch(/^cairn_sk_[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(created.content)).toContain(secret);
    const id = (data['record'] as { id: string }).id;
    const stored = await t.core.store.all<Row>('SELECT * FROM entity_api_keys');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.['key_hash']).toBe(hashSecret(secret));
    expect(JSON.stringify(stored)).not.toContain(secret);
    for (const args of [
      { action: 'get', id },
      { action: 'list' },
      { action: 'update', id, data: { name: 'x' } },
    ]) {
      const r = await t.client.callTool({
        name: 'entity',
        arguments: { resource: 'api_key', ...args },
      });
      expect(JSON.stringify(r)).not.toContain(secret);
      expect(JSON.stringify(r)).not.toContain(hashSecret(secret));
      expect(JSON.stringify(r)).toContain(secret.slice(0, 13));
    }
    expect(
      await callInvalid(t.client, 'entity', {
        action: 'create',
        resource: 'api_key',
        data: { name: 'x', key_hash: 'h' },
      }),
    ).toBe('invalid args: data.key_hash: is not a field of this action');
  });

  it('lists honestly and refuses unknown filter fields by name', async () => {
    const empty = await t.call('project', { action: 'list', resource: 'project', project_id: '*' });
    expect(empty).toMatchObject({ status: 'empty', matching: 0, stored: 0 });
    for (const p of ['a', 'b', 'c'])
      await t.call('project', { action: 'create', resource: 'project', project_id: p });
    expect(
      (await t.call('project', { action: 'list', resource: 'project', project_id: '*' }))[
        'matching'
      ],
    ).toBe(3);
    expect(
      (await t.call('project', { action: 'list', resource: 'project', project_id: 'b' }))[
        'records'
      ],
    ).toMatchObject([{ id: 'b', name: 'b' }]);
    await t.create('project', 'issue', { project_id: 'a', data: { title: 'x', status: 'done' } });
    const out = await t.call('project', {
      action: 'list',
      resource: 'issue',
      project_id: 'a',
      filters: { status: 'open' },
    });
    expect(out).toMatchObject({ status: 'filtered_out', stored: 1, matching: 0 });
    expect(
      (await t.call('project', { action: 'list', resource: 'issue', project_id: 'b' }))['status'],
    ).toBe('empty');
    expect(
      await callInvalid(t.client, 'project', {
        action: 'list',
        resource: 'issue',
        project_id: 'a',
        filters: { colour: 'x' },
      }),
    ).toMatch(
      /^invalid args: filters\.colour: not a field of issue to filter on \(fields: id, project_id, phase_id, title/,
    );
    expect(
      await callInvalid(t.client, 'entity', { action: 'list', resource: 'branch', team_id: 't' }),
    ).toBe('invalid args: team_id: does not apply to a branch (its scoping ids: repository_id)');
    expect(
      await callInvalid(t.client, 'project', {
        action: 'list',
        resource: 'issue',
        project_id: 'a',
        filters: { limit: 0 },
      }),
    ).toBe('invalid args: filters.limit: filters.limit must be at least 1');
  });

  it('finds rows by their unique scoping ids: a user by email, a member by team and user', async () => {
    const org = await t.create('entity', 'org', { data: { name: 'o' } });
    const user = await t.create('entity', 'user', { email: 'ann@example.com', org_id: org });
    const team = await t.create('entity', 'team', { org_id: org, data: { name: 't' } });
    await t.create('entity', 'team_member', { team_id: team, user_id: user });
    const byEmail = await t.call('entity', {
      action: 'get',
      resource: 'user',
      email: 'ann@example.com',
    });
    expect((byEmail['record'] as Row)['id']).toBe(user);
    const dup = await callErr(t.client, 'entity', {
      action: 'create',
      resource: 'team_member',
      team_id: team,
      user_id: user,
    });
    expect(dup.text).toMatch(/already exists/);
    await t.call('entity', {
      action: 'delete',
      resource: 'team_member',
      team_id: team,
      user_id: user,
    });
    expect(
      (await t.call('entity', { action: 'list', resource: 'team_member', team_id: team }))[
        'status'
      ],
    ).toBe('empty');
    expect(await callInvalid(t.client, 'entity', { action: 'get', resource: 'team' })).toBe(
      'invalid args: id: is required to get a team',
    );
    const missing = await callErr(t.client, 'entity', {
      action: 'get',
      resource: 'user',
      email: 'bob@example.com',
    });
    expect(missing.text).toBe('no user with email bob@example.com');
  });

  it('refuses hostile and malformed input as invalid args naming the field', async () => {
    await t.call('project', { action: 'create', resource: 'project', project_id: 'p' });
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
    for (const [args, text] of bad) expect(await callInvalid(t.client, 'project', args)).toBe(text);
    expect(
      await callInvalid(t.client, 'project', {
        action: 'create',
        resource: 'project',
        project_id: 'x'.repeat(300),
      }),
    ).toBe('invalid args: project_id: project_id is longer than 256 characters');
    await t.call('project', {
      action: 'create',
      resource: 'project',
      project_id: "p'; DROP TABLE projects; --",
    });
    expect(
      (await t.call('project', { action: 'list', resource: 'project', project_id: '*' }))[
        'matching'
      ],
    ).toBe(2);
    expect(
      await callInvalid(t.client, 'entity', {
        action: 'create',
        resource: 'org',
        id: 'mine',
        data: { name: 'o' },
      }),
    ).toBe('invalid args: id: is not used by create (ids are generated)');
    expect(
      await callInvalid(t.client, 'entity', {
        action: 'update',
        resource: 'org',
        id: 'o',
        data: {},
      }),
    ).toBe('invalid args: data: names no field to change (fields: name, description)');
  });
});
