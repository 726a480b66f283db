// The entity tool's version-control resources: repository, branch, worktree and assignment. A
// branch and a worktree belong to a repository (a worktree's branch must be of the same one);
// an assignment is a lease on a worktree (one open at a time) that `release` ends.
import { ConflictError } from '../shared/index.js';
import { entityRowsWhere } from '../store/index.js';
import { boardTask, name, ref, system, text } from './fields.js';
import type { ResourceSpec } from './model.js';

const repository: ResourceSpec = {
  key: 'repository',
  tool: 'entity',
  name: 'repository',
  table: 'entity_repositories',
  doc: 'A code repository (unique name per org)',
  fields: {
    name: name('Its name, e.g. owner/repo', { required: true }),
    org_id: ref(['org'], 'The org that owns it'),
    project_id: ref(['project'], 'The project (project tool) it serves'),
    url: text('Remote URL', 2000),
    path: text('Path on disk', 4096),
    default_branch: name('Default branch name'),
  },
  unique: [['org_id', 'name']],
  scopes: { org_id: 'org_id', project_id: 'project_id' },
};

const branch: ResourceSpec = {
  key: 'branch',
  tool: 'entity',
  name: 'branch',
  table: 'entity_branches',
  doc: 'A branch of a repository (unique name per repository)',
  fields: {
    repository_id: ref(['repository'], 'Its repository', { required: true, fixed: true }),
    name: name('Branch name', { required: true }),
    head_commit: name('Commit it points at'),
  },
  unique: [['repository_id', 'name']],
  scopes: { repository_id: 'repository_id' },
};

const worktree: ResourceSpec = {
  key: 'worktree',
  tool: 'entity',
  name: 'worktree',
  table: 'entity_worktrees',
  doc: 'A checkout of a repository on disk (unique path), optionally on one of its branches',
  fields: {
    repository_id: ref(['repository'], 'Its repository', { required: true, fixed: true }),
    branch_id: ref(['branch'], 'The branch checked out (of the same repository)'),
    path: text('Path on disk (unique)', 4096, { required: true }),
  },
  unique: [['path']],
  scopes: { repository_id: 'repository_id' },
  sameParent: [
    {
      field: 'branch_id',
      column: 'repository_id',
      equals: 'repository_id',
      why: 'a branch of the worktree’s repository',
    },
  ],
};

const assignment: ResourceSpec = {
  key: 'assignment',
  tool: 'entity',
  name: 'assignment',
  table: 'entity_assignments',
  doc: 'Who works in a worktree: a lease (one open per worktree) that release ends; may link a board task',
  fields: {
    worktree_id: ref(['worktree'], 'The worktree', { required: true, fixed: true }),
    agent: name('The agent or person holding it', { required: true }),
    user_id: ref(['user'], 'Their user account'),
    issue_id: ref(['issue'], 'The issue (entity tool) worked on'),
    task_id: boardTask('The board task worked on (a live task; linked, not copied)'),
    purpose: text('What for', 2000),
    released_at: system('int', 'When release ended it (null: open)'),
    released_by: system('text', 'Who released it'),
  },
  scopes: {
    worktree_id: 'worktree_id',
    user_id: 'user_id',
    issue_id: 'issue_id',
  },
  lease: true,
  beforeCreate: async (ctx, row) => {
    const [open] = await entityRowsWhere(
      ctx.tx,
      'entity_assignments',
      { worktree_id: row['worktree_id'] ?? null, released_at: null },
      { limit: 1 },
    );
    if (open !== undefined) {
      throw new ConflictError(
        `worktree ${String(row['worktree_id'])} is already assigned to ${String(open['agent'])} (assignment ${open.id}); release that assignment first`,
      );
    }
    return undefined;
  },
};

/** The entity tool's version-control resources. */
export const VCS_RESOURCES: readonly ResourceSpec[] = [repository, branch, worktree, assignment];
