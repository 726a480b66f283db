// Unit tests of the project and entity engine over a fresh in-memory store: the registry
// matches the spec's resource lists, integrity (missing and cross-parent references, unique
// keys, board links), cycle refusal naming the cycle, delete refused with dependents named,
// release of a lease (idempotent), api keys stored hashed, and honest list answers.
import { describe, expect, it } from 'vitest';

import { openTestBoard } from '../../test/board-fixture.js';
import { hashSecret } from './api-keys.js';
import { ENTITY_RESOURCE_NAMES, PROJECT_RESOURCE_NAMES, type Writer } from './model.js';
import type { EntityInput, ProjectInput } from './schemas.js';
import { createEntities } from './service.js';

const writer: Writer = { agent: 'ann', provenance: { session_id: 's-1' } };

async function open() {
  const { store, board } = await openTestBoard();
  const entities = createEntities(store, { clock: () => 1_800_000_000_000 });
  const project = (args: Omit<ProjectInput, 'token'>) => entities.project(args, writer);
  const entity = (args: Omit<EntityInput, 'token'>) => entities.entity(args, writer);
  const id = async (p: ReturnType<typeof entity>) => (await p).record?.id ?? '';
  return { store, board, entities, project, entity, id };
}

describe('the entity registry', () => {
  it('serves exactly the spec’s resources, each reference naming a known resource', async () => {
    const { entities } = await open();
    expect(entities.registry.names('project')).toEqual([...PROJECT_RESOURCE_NAMES]);
    expect(entities.registry.names('entity')).toEqual([...ENTITY_RESOURCE_NAMES]);
    const keys = new Set(entities.registry.all().map((s) => s.key));
    for (const spec of entities.registry.all()) {
      for (const f of Object.values(spec.fields))
        for (const r of f.ref ?? []) expect(keys).toContain(r);
    }
  });
});

describe('project resources', () => {
  it('refuses a dependency cycle, naming it, and a delete others depend on', async () => {
    const { project } = await open();
    await project({ action: 'create', resource: 'project', project_id: 'p1' });
    const issue = async (title: string) =>
      (await project({ action: 'create', resource: 'issue', project_id: 'p1', data: { title } }))
        .record?.id ?? '';
    const [a, b, c] = [await issue('a'), await issue('b'), await issue('c')];
    const dep = (from: string, to: string) =>
      project({
        action: 'create',
        resource: 'dependency',
        project_id: 'p1',
        data: { from_id: from, depends_on_id: to },
      });
    await dep(a, b);
    await dep(b, c);
    await expect(dep(c, a)).rejects.toThrow(`would close a cycle ${c} → ${a} → ${b} → ${c}`);
    await expect(dep(a, a)).rejects.toThrow(`cycle ${a} → ${a}`);
    await expect(
      project({ action: 'delete', resource: 'issue', project_id: 'p1', data: { id: b } }),
    ).rejects.toThrow(/2 dependency \((from_id|depends_on_id)\)|1 dependency/);
    const refused = project({ action: 'delete', resource: 'project', project_id: 'p1' });
    await expect(refused).rejects.toThrow(
      /project p1 cannot be deleted: 5 rows depend on it — 3 issue \(project_id\)/,
    );
  });

  it('keeps references inside the project and links live board tasks only', async () => {
    const { project, board } = await open();
    for (const p of ['p1', 'p2'])
      await project({ action: 'create', resource: 'project', project_id: p });
    const phase = await project({
      action: 'create',
      resource: 'phase',
      project_id: 'p2',
      data: { name: 'build' },
    });
    await expect(
      project({
        action: 'create',
        resource: 'issue',
        project_id: 'p1',
        data: { title: 't', phase_id: phase.record?.id },
      }),
    ).rejects.toThrow(
      /data\.phase_id: phase .* has project_id p2, but this issue has project_id p1/,
    );
    await expect(
      project({
        action: 'create',
        resource: 'issue',
        project_id: 'p1',
        data: { title: 't', task_id: 'nope' },
      }),
    ).rejects.toThrow('data.task_id: no live board task has id nope');
    const task = await board.createTask({ title: 'carry it' });
    const linked = await project({
      action: 'create',
      resource: 'issue',
      project_id: 'p1',
      data: { title: 't', task_id: task.id },
    });
    expect(linked.record).toMatchObject({ taskId: task.id, createdBy: 'ann', status: 'open' });
    await expect(
      project({ action: 'create', resource: 'phase', project_id: 'nope', data: { name: 'x' } }),
    ).rejects.toThrow('project_id: no project has id nope');
  });
});

describe('entity resources', () => {
  it('refuses a worktree on a branch of another repository, naming the field', async () => {
    const { entity, id } = await open();
    const r1 = await id(entity({ action: 'create', resource: 'repository', data: { name: 'a' } }));
    const r2 = await id(entity({ action: 'create', resource: 'repository', data: { name: 'b' } }));
    const b2 = await id(
      entity({ action: 'create', resource: 'branch', repository_id: r2, data: { name: 'main' } }),
    );
    await expect(
      entity({
        action: 'create',
        resource: 'worktree',
        repository_id: r1,
        data: { path: '/w', branch_id: b2 },
      }),
    ).rejects.toThrow(
      `data.branch_id: branch ${b2} has repository_id ${r2}, but this worktree has repository_id ${r1}`,
    );
    await expect(
      entity({ action: 'create', resource: 'branch', data: { name: 'x', repository_id: 'nope' } }),
    ).rejects.toThrow('data.repository_id: no repository has id nope');
    await expect(
      entity({ action: 'create', resource: 'branch', repository_id: 'nope', data: { name: 'x' } }),
    ).rejects.toThrow(/^repository_id: no repository has id nope/);
    await expect(
      entity({ action: 'create', resource: 'branch', repository_id: r2, data: { name: 'main' } }),
    ).rejects.toThrow(`a branch with repository_id ${r2} and name main already exists: ${b2}`);
    const email = { email: 'ann@example.com' };
    const u = await id(entity({ action: 'create', resource: 'user', data: email }));
    await expect(entity({ action: 'create', resource: 'user', data: email })).rejects.toThrow(
      `a user with email ann@example.com already exists: ${u} (it is unique;`,
    );
  });

  it('numbers plan versions, releases an assignment once, and stores api keys hashed', async () => {
    const { entity, id, store } = await open();
    const plan = await id(entity({ action: 'create', resource: 'plan', data: { title: 'p' } }));
    for (const n of [1, 2]) {
      const v = await entity({
        action: 'create',
        resource: 'version',
        plan_id: plan,
        data: { content: `v${n}` },
      });
      expect(v.record?.['number']).toBe(n);
    }
    const repo = await id(
      entity({ action: 'create', resource: 'repository', data: { name: 'r' } }),
    );
    const wt = await id(
      entity({ action: 'create', resource: 'worktree', repository_id: repo, data: { path: '/w' } }),
    );
    const a = await id(
      entity({ action: 'create', resource: 'assignment', worktree_id: wt, data: { agent: 'bob' } }),
    );
    await expect(
      entity({ action: 'create', resource: 'assignment', worktree_id: wt, data: { agent: 'eve' } }),
    ).rejects.toThrow(`already assigned to bob (assignment ${a})`);
    const first = await entity({ action: 'release', resource: 'assignment', id: a });
    expect(first).toMatchObject({ released: true, record: { releasedBy: 'ann' } });
    const again = await entity({ action: 'release', resource: 'assignment', id: a });
    expect(again.released).toBe(false);
    expect(again.message).toContain('was already released');
    await expect(entity({ action: 'release', resource: 'branch', id: a })).rejects.toThrow(
      'release applies to: assignment',
    );
    const key = await entity({ action: 'create', resource: 'api_key', data: { name: 'ci' } });
    expect(key.secret).toMatch(/^cairn_sk_[A-Za-z0-9_-]{43}$/);
    expect(key.record).not.toHaveProperty('keyHash');
    const rows = await store.all<{ key_hash: string }>('SELECT key_hash FROM entity_api_keys');
    expect(rows).toEqual([{ key_hash: hashSecret(key.secret ?? '') }]);
    const got = await entity({ action: 'get', resource: 'api_key', id: key.record?.id ?? '' });
    expect(JSON.stringify(got)).not.toContain(key.secret ?? 'x');
  });

  it('lists honestly: empty, filtered out, paged; unknown filter fields named', async () => {
    const { entity } = await open();
    expect((await entity({ action: 'list', resource: 'org' })).list?.status).toBe('empty');
    for (const name of ['a', 'b', 'c'])
      await entity({ action: 'create', resource: 'org', data: { name } });
    const filtered = await entity({ action: 'list', resource: 'org', data: { name: 'z' } });
    expect(filtered.list).toMatchObject({ status: 'filtered_out', stored: 3, matching: 0 });
    const page = await entity({ action: 'list', resource: 'org', data: { limit: 2, offset: 1 } });
    expect(page.list?.records.map((r) => r['name'])).toEqual(['b', 'c']);
    expect(page.list).toMatchObject({ truncated: false, matching: 3 });
    await expect(
      entity({ action: 'list', resource: 'org', data: { colour: 'x', nme: 1 } }),
    ).rejects.toThrow(/not a field of org to filter on/);
  });
});
