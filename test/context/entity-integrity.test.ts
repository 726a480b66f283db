// The project and entity tools through a real SDK client: every resource's create, get,
// update, list and delete; referential integrity naming the field the caller wrote; references
// across parents; dependency cycles named; deletes refused with their dependents named.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { callErr, callInvalid } from '../helpers.js';
import { type EntityHarness, entityHarness, reason, roundTrip } from './entity-fixtures.js';
import { STEPS } from './entity-steps.js';

describe('cairn-context: project and entity integrity', () => {
  let t: EntityHarness;
  beforeEach(async () => (t = await entityHarness()));
  afterEach(() => t.close());

  it('creates, gets, updates, lists and deletes every resource of both tools', async () => {
    const seen = await roundTrip(t.call);
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
    const left = await t.core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM entity_orgs');
    expect(left?.n).toBe(0);
  });

  it('names the missing parent and the field the caller wrote it in', async () => {
    const viaScope = await callErr(t.client, 'entity', {
      action: 'create',
      resource: 'branch',
      repository_id: 'r-nope',
      data: { name: 'main' },
    });
    expect(viaScope.text).toBe(
      'repository_id: no repository has id r-nope (create it first, or check the id)',
    );
    expect(reason(viaScope.meta)).toBe('missing_reference');
    const viaData = await callErr(t.client, 'entity', {
      action: 'create',
      resource: 'review',
      data: { plan_version_id: 'v-nope', reviewer: 'eve' },
    });
    expect(viaData.text).toMatch(/^data\.plan_version_id: no version has id v-nope/);
    const noProject = await callErr(t.client, 'project', {
      action: 'create',
      resource: 'issue',
      project_id: 'ghost',
      data: { title: 't' },
    });
    expect(noProject.text).toMatch(/^project_id: no project has id ghost/);
    const listGhost = await callErr(t.client, 'project', {
      action: 'list',
      resource: 'issue',
      project_id: 'ghost',
    });
    expect(listGhost.text).toBe('project ghost not found');
    expect(
      await callInvalid(t.client, 'entity', {
        action: 'create',
        resource: 'branch',
        data: { name: 'main' },
      }),
    ).toBe(
      'invalid args: data.repository_id: is required to create a branch (or pass repository_id)',
    );
  });

  it('refuses references across parents: a worktree on another repository’s branch, a label of another org', async () => {
    const r1 = await t.create('entity', 'repository', { data: { name: 'a' } });
    const r2 = await t.create('entity', 'repository', { data: { name: 'b' } });
    const b2 = await t.create('entity', 'branch', { repository_id: r2, data: { name: 'dev' } });
    const cross = await callErr(t.client, 'entity', {
      action: 'create',
      resource: 'worktree',
      repository_id: r1,
      data: { path: '/w1', branch_id: b2 },
    });
    expect(cross.text).toContain(
      `data.branch_id: branch ${b2} has repository_id ${r2}, but this worktree has repository_id ${r1}`,
    );
    expect(reason(cross.meta)).toBe('cross_parent');
    const w1 = await t.create('entity', 'worktree', { repository_id: r1, data: { path: '/w1' } });
    const moved = await callErr(t.client, 'entity', {
      action: 'update',
      resource: 'worktree',
      id: w1,
      data: { branch_id: b2 },
    });
    expect(reason(moved.meta)).toBe('cross_parent');
    const [o1, o2] = [
      await t.create('entity', 'org', { data: { name: 'o1' } }),
      await t.create('entity', 'org', { data: { name: 'o2' } }),
    ];
    const issue = await t.create('entity', 'issue', { org_id: o1, data: { title: 't' } });
    const label = await t.create('entity', 'label', { org_id: o2, data: { name: 'bug' } });
    const mixed = await callErr(t.client, 'entity', {
      action: 'create',
      resource: 'label_assignment',
      issue_id: issue,
      label_id: label,
    });
    expect(mixed.text).toContain('a label_assignment takes a label of the issue’s org');
    expect(
      await callInvalid(t.client, 'entity', {
        action: 'update',
        resource: 'worktree',
        id: w1,
        data: { repository_id: r2 },
      }),
    ).toBe(
      'invalid args: data.repository_id: cannot change: it is set when the worktree is created (create another instead)',
    );
    const wrongParent = await callErr(t.client, 'entity', {
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
    await t.call('project', { action: 'create', resource: 'project', project_id: 'p' });
    const phase = await t.create('project', 'phase', { project_id: 'p', data: { name: 'one' } });
    const a = await t.create('project', 'issue', { project_id: 'p', data: { title: 'a' } });
    const b = await t.create('project', 'issue', { project_id: 'p', data: { title: 'b' } });
    const dep = (from: string, to: string) => ({
      action: 'create',
      resource: 'dependency',
      project_id: 'p',
      data: { from_id: from, depends_on_id: to },
    });
    await t.call('project', dep(a, b));
    await t.call('project', dep(b, phase));
    const cycle = await callErr(t.client, 'project', dep(phase, a));
    expect(cycle.text).toBe(
      `dependency refused: it would close a cycle ${phase} → ${a} → ${b} → ${phase} (each depends on the next)`,
    );
    expect(reason(cycle.meta)).toBe('cycle');
    const again = await callErr(t.client, 'project', dep(a, b));
    expect(again.text).toMatch(/^a dependency with from_id .* already exists/);
    const list = await t.call('project', {
      action: 'list',
      resource: 'dependency',
      project_id: 'p',
    });
    expect(list['matching']).toBe(2);
    await t.call('project', { action: 'create', resource: 'project', project_id: 'q' });
    const c = await t.create('project', 'issue', { project_id: 'q', data: { title: 'c' } });
    const across = await callErr(t.client, 'project', dep(a, c));
    expect(across.text).toContain(
      `issue ${c} has project_id q, but this dependency has project_id p`,
    );
  });

  it('refuses a delete others depend on, naming up to five per kind and the count', async () => {
    const repo = await t.create('entity', 'repository', { data: { name: 'r' } });
    const branches: string[] = [];
    for (let i = 0; i < 7; i++)
      branches.push(
        await t.create('entity', 'branch', { repository_id: repo, data: { name: `b${i}` } }),
      );
    await t.create('entity', 'worktree', { repository_id: repo, data: { path: '/w' } });
    const refused = await callErr(t.client, 'entity', {
      action: 'delete',
      resource: 'repository',
      id: repo,
    });
    expect(refused.text).toContain(
      `repository ${repo} cannot be deleted: 8 rows depend on it — 7 branch (repository_id): ${branches.slice(0, 5).join(', ')}, and 2 more; 1 worktree (repository_id): `,
    );
    expect(reason(refused.meta)).toBe('has_dependents');
    expect(
      (await t.call('entity', { action: 'list', resource: 'branch', repository_id: repo }))[
        'matching'
      ],
    ).toBe(7);
  });
});
