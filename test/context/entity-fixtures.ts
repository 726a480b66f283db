// Every resource of the project and entity tools once, over any transport: the whole graph is
// created parent first, each row is read, updated and listed by its scope, then everything is
// deleted child first (a parent's delete, tried first, is refused naming its dependents).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

type Args = Record<string, unknown>;
type Ids = Record<string, string>;

/** One resource in the round trip: how to create, address, update and list it. */
interface Step {
  key: string;
  tool: 'project' | 'entity';
  resource: string;
  create: (ids: Ids) => Args;
  update: Args;
  /** The scoping ids its list is filtered by. */
  scope?: (ids: Ids) => Args;
}

const P = { project_id: 'acme' };

export const STEPS: readonly Step[] = [
  {
    key: 'project',
    tool: 'project',
    resource: 'project',
    create: () => ({ ...P, data: { name: 'Acme' } }),
    update: { status: 'paused' },
  },
  {
    key: 'phase',
    tool: 'project',
    resource: 'phase',
    create: () => ({ ...P, data: { name: 'build' } }),
    update: { status: 'active' },
  },
  {
    key: 'pissue',
    tool: 'project',
    resource: 'issue',
    create: (i) => ({ ...P, data: { title: 'ship it', phase_id: i['phase'] } }),
    update: { status: 'in_progress' },
  },
  {
    key: 'pissue2',
    tool: 'project',
    resource: 'issue',
    create: () => ({ ...P, data: { title: 'write docs' } }),
    update: { priority: 3 },
  },
  {
    key: 'dependency',
    tool: 'project',
    resource: 'dependency',
    create: (i) => ({ ...P, data: { from_id: i['pissue2'], depends_on_id: i['pissue'] } }),
    update: { note: 'docs follow the code' },
  },
  {
    key: 'decision',
    tool: 'project',
    resource: 'decision',
    create: (i) => ({ ...P, data: { title: 'use sqlite', issue_id: i['pissue'] } }),
    update: { status: 'accepted' },
  },
  {
    key: 'org',
    tool: 'entity',
    resource: 'org',
    create: () => ({ data: { name: 'acme-org' } }),
    update: { description: 'makers' },
  },
  {
    key: 'user',
    tool: 'entity',
    resource: 'user',
    create: (i) => ({ org_id: i['org'], data: { email: 'ann@example.com' } }),
    update: { name: 'Ann' },
    scope: (i) => ({ org_id: i['org'] }),
  },
  {
    key: 'team',
    tool: 'entity',
    resource: 'team',
    create: (i) => ({ org_id: i['org'], data: { name: 'core' } }),
    update: { description: 'the core team' },
    scope: (i) => ({ org_id: i['org'] }),
  },
  {
    key: 'team_member',
    tool: 'entity',
    resource: 'team_member',
    create: (i) => ({ team_id: i['team'], user_id: i['user'] }),
    update: { role: 'lead' },
    scope: (i) => ({ team_id: i['team'] }),
  },
  {
    key: 'api_key',
    tool: 'entity',
    resource: 'api_key',
    create: (i) => ({ user_id: i['user'], data: { name: 'ci', scopes: ['read'] } }),
    update: { name: 'ci-2' },
    scope: (i) => ({ user_id: i['user'] }),
  },
  {
    key: 'repository',
    tool: 'entity',
    resource: 'repository',
    create: (i) => ({ org_id: i['org'], project_id: 'acme', data: { name: 'acme/app' } }),
    update: { default_branch: 'main' },
    scope: () => ({ project_id: 'acme' }),
  },
  {
    key: 'branch',
    tool: 'entity',
    resource: 'branch',
    create: (i) => ({ repository_id: i['repository'], data: { name: 'main' } }),
    update: { head_commit: 'abc123' },
    scope: (i) => ({ repository_id: i['repository'] }),
  },
  {
    key: 'worktree',
    tool: 'entity',
    resource: 'worktree',
    create: (i) => ({
      repository_id: i['repository'],
      data: { path: '/work/app', branch_id: i['branch'] },
    }),
    update: { path: '/work/app-2' },
    scope: (i) => ({ repository_id: i['repository'] }),
  },
  {
    key: 'issue',
    tool: 'entity',
    resource: 'issue',
    create: (i) => ({
      org_id: i['org'],
      data: { title: 'flaky test', repository_id: i['repository'] },
    }),
    update: { status: 'closed' },
    scope: (i) => ({ org_id: i['org'] }),
  },
  {
    key: 'assignment',
    tool: 'entity',
    resource: 'assignment',
    create: (i) => ({ worktree_id: i['worktree'], data: { agent: 'bob', issue_id: i['issue'] } }),
    update: { purpose: 'fix the flake' },
    scope: (i) => ({ worktree_id: i['worktree'] }),
  },
  {
    key: 'plan',
    tool: 'entity',
    resource: 'plan',
    create: () => ({ project_id: 'acme', data: { title: 'v2' } }),
    update: { status: 'active' },
    scope: () => ({ project_id: 'acme' }),
  },
  {
    key: 'version',
    tool: 'entity',
    resource: 'version',
    create: (i) => ({ plan_id: i['plan'], data: { content: '1. do it' } }),
    update: { note: 'first draft' },
    scope: (i) => ({ plan_id: i['plan'] }),
  },
  {
    key: 'review',
    tool: 'entity',
    resource: 'review',
    create: (i) => ({ plan_version_id: i['version'], data: { reviewer: 'eve' } }),
    update: { status: 'approved' },
    scope: (i) => ({ plan_version_id: i['version'] }),
  },
  {
    key: 'comment',
    tool: 'entity',
    resource: 'comment',
    create: (i) => ({ issue_id: i['issue'], data: { body: 'seen it too' } }),
    update: { body: 'seen it twice' },
    scope: (i) => ({ issue_id: i['issue'] }),
  },
  {
    key: 'label',
    tool: 'entity',
    resource: 'label',
    create: (i) => ({ org_id: i['org'], data: { name: 'bug' } }),
    update: { color: '#d73a4a' },
    scope: (i) => ({ org_id: i['org'] }),
  },
  {
    key: 'label_assignment',
    tool: 'entity',
    resource: 'label_assignment',
    create: (i) => ({ issue_id: i['issue'], label_id: i['label'] }),
    update: {},
    scope: (i) => ({ issue_id: i['issue'] }),
  },
];

/** A call's structuredContent; throws with the text on a tool error. */
export type Caller = (tool: string, args: Args) => Promise<Record<string, unknown>>;

/** A Caller over `client`, sending `meta` as the request `_meta`. */
export function callerOf(client: Client, meta: Args = {}): Caller {
  return async (tool, args) => {
    const r = (await client.callTool({
      name: tool,
      arguments: args,
      _meta: meta,
    })) as CallToolResult;
    const first = r.content[0];
    const text = first?.type === 'text' ? first.text : '';
    if (r.isError === true)
      throw new Error(`${tool} ${String(args['action'])} ${String(args['resource'])}: ${text}`);
    return r.structuredContent as Record<string, unknown>;
  };
}

/** How a step's row is addressed for get/update/delete. */
const address = (s: Step, ids: Ids): Args => {
  const id = ids[s.key] ?? '';
  if (s.tool === 'entity') return { id };
  return s.resource === 'project' ? P : { ...P, data: { id } };
};

const withData = (a: Args, data: Args): Args => ({
  ...a,
  data: { ...(a['data'] as Args | undefined), ...data },
});

/** What roundTrip saw, for the suites to check. */
export interface RoundTrip {
  ids: Ids;
  updated: string[];
  listed: string[];
  deleted: string[];
  refusedParent: string;
  secret: string;
  createdBy: unknown;
}

/** Creates, reads, updates, lists and deletes every resource of both tools once. */
export async function roundTrip(call: Caller): Promise<RoundTrip> {
  const ids: Ids = {};
  let secret = '';
  for (const s of STEPS) {
    const out = await call(s.tool, { action: 'create', resource: s.resource, ...s.create(ids) });
    ids[s.key] = (out['record'] as { id: string }).id;
    if (s.key === 'api_key') secret = String(out['secret']);
  }
  const got = await call('entity', {
    action: 'get',
    resource: 'repository',
    id: ids['repository'],
  });
  const createdBy = (got['record'] as Args)['createdBy'];
  const updated: string[] = [];
  const listed: string[] = [];
  for (const s of STEPS) {
    await call(s.tool, { action: 'get', resource: s.resource, ...address(s, ids) });
    if (Object.keys(s.update).length > 0) {
      const out = await call(s.tool, {
        action: 'update',
        resource: s.resource,
        ...withData(address(s, ids), s.update),
      });
      updated.push(...(out['changed'] as string[]).map((c) => `${s.key}.${c}`));
    }
    const scope = s.tool === 'project' ? P : (s.scope?.(ids) ?? {});
    const list = await call(s.tool, { action: 'list', resource: s.resource, ...scope });
    if ((list['records'] as { id: string }[]).some((r) => r.id === ids[s.key])) listed.push(s.key);
  }
  const refusedParent = await call('entity', {
    action: 'delete',
    resource: 'org',
    id: ids['org'],
  }).then(
    () => '',
    (err: Error) => err.message,
  );
  const deleted: string[] = [];
  for (const s of [...STEPS].reverse()) {
    if (s.key === 'assignment')
      await call('entity', { action: 'release', resource: 'assignment', id: ids['assignment'] });
    await call(s.tool, { action: 'delete', resource: s.resource, ...address(s, ids) });
    deleted.push(s.key);
  }
  return { ids, updated, listed, deleted, refusedParent, secret, createdBy };
}

/** Two issues of project `cyc` that depend on each other: the refusal's text (the cycle). */
export async function cycleRefusal(call: Caller): Promise<{ text: string; a: string; b: string }> {
  await call('project', { action: 'create', resource: 'project', project_id: 'cyc' });
  const issue = async (title: string) =>
    (
      (
        await call('project', {
          action: 'create',
          resource: 'issue',
          project_id: 'cyc',
          data: { title },
        })
      )['record'] as { id: string }
    ).id;
  const [a, b] = [await issue('a'), await issue('b')];
  const dep = (from: string, to: string) =>
    call('project', {
      action: 'create',
      resource: 'dependency',
      project_id: 'cyc',
      data: { from_id: from, depends_on_id: to },
    });
  await dep(a, b);
  const text = await dep(b, a).then(
    () => '',
    (err: Error) => err.message,
  );
  return { text, a, b };
}

/** The transport suites' check: every resource's round trip, then a refused cycle. */
export async function expectBothTools(call: Caller): Promise<void> {
  const keys = STEPS.map((s) => s.key);
  const r = await roundTrip(call);
  expect(Object.keys(r.ids)).toEqual(keys);
  expect(r.listed).toEqual(keys);
  expect(r.deleted).toEqual([...keys].reverse());
  expect(r.refusedParent).toMatch(/cannot be deleted: \d+ rows depend on it/);
  expect(r.secret).toMatch(/^cairn_sk_/);
  const cycle = await cycleRefusal(call);
  expect(cycle.text).toContain(`would close a cycle ${cycle.b} → ${cycle.a} → ${cycle.b}`);
}
