// The round trip's resources, parent first: how each is created, updated and listed (the
// project tool's rows in project `acme`; the entity tool's under their scoping ids).
type Args = Record<string, unknown>;
export type Ids = Record<string, string>;

export const P = { project_id: 'acme' };

/** One resource in the round trip: how to create, address, update and list it. */
export interface Step {
  key: string;
  tool: 'project' | 'entity';
  resource: string;
  create: (ids: Ids) => Args;
  update: Args;
  /** The scoping ids its list is filtered by. */
  scope?: (ids: Ids) => Args;
}

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
