// The entity tool's planning and issue resources: plan, version (numbered per plan), review (of
// a plan version), issue (may link a board task), comment, label and label_assignment (an issue
// and a label of the same org, once).
import { maxEntityColumn } from '../store/index.js';
import { boardTask, name, oneOf, ref, system, text } from './fields.js';
import type { ResourceSpec } from './model.js';

const plan: ResourceSpec = {
  key: 'plan',
  tool: 'entity',
  name: 'plan',
  table: 'entity_plans',
  doc: 'A plan, whose text lives in numbered versions',
  fields: {
    title: text('What it plans', 500, { required: true }),
    description: text('Summary'),
    status: oneOf(['draft', 'active', 'done', 'abandoned'], 'Its state'),
    org_id: ref(['org'], 'The org'),
    project_id: ref(['project'], 'The project (project tool)'),
    repository_id: ref(['repository'], 'The repository it changes'),
  },
  scopes: { org_id: 'org_id', project_id: 'project_id', repository_id: 'repository_id' },
};

const version: ResourceSpec = {
  key: 'version',
  tool: 'entity',
  name: 'version',
  table: 'entity_plan_versions',
  doc: 'One version of a plan’s text, numbered 1, 2, … per plan',
  fields: {
    plan_id: ref(['plan'], 'The plan', { required: true, fixed: true }),
    content: text('The plan’s text', 200_000, { required: true }),
    note: text('What changed', 2000),
    number: system('int', 'Its number in the plan (set on create)'),
  },
  scopes: { plan_id: 'plan_id' },
  beforeCreate: async (ctx, row) => {
    const last = await maxEntityColumn(ctx.tx, 'entity_plan_versions', 'number', {
      plan_id: row['plan_id'] ?? null,
    });
    return { set: { number: last + 1 } };
  },
};

const review: ResourceSpec = {
  key: 'review',
  tool: 'entity',
  name: 'review',
  table: 'entity_reviews',
  doc: 'A review of one plan version',
  fields: {
    plan_version_id: ref(['version'], 'The plan version reviewed', {
      required: true,
      fixed: true,
    }),
    reviewer: name('Who reviews', { required: true }),
    status: oneOf(['pending', 'approved', 'changes_requested', 'rejected'], 'The verdict'),
    body: text('The review'),
  },
  scopes: { plan_version_id: 'plan_version_id' },
};

const issue: ResourceSpec = {
  key: 'issue',
  tool: 'entity',
  name: 'issue',
  table: 'entity_issues',
  doc: 'A tracked issue (comments, labels); may link a board task rather than copy it',
  fields: {
    title: text('What is wrong or wanted', 500, { required: true }),
    body: text('Details'),
    status: oneOf(['open', 'closed'], 'Its state'),
    assignee: name('Who handles it'),
    org_id: ref(['org'], 'The org'),
    project_id: ref(['project'], 'The project (project tool)'),
    repository_id: ref(['repository'], 'The repository'),
    task_id: boardTask('The board task carrying the work (a live task; linked, not copied)'),
  },
  scopes: { org_id: 'org_id', project_id: 'project_id', repository_id: 'repository_id' },
};

const comment: ResourceSpec = {
  key: 'comment',
  tool: 'entity',
  name: 'comment',
  table: 'entity_comments',
  doc: 'A comment on an issue',
  fields: {
    issue_id: ref(['issue'], 'The issue', { required: true, fixed: true }),
    body: text('The comment', 20_000, { required: true }),
    author: name('Who wrote it (the caller is recorded as createdBy either way)'),
    user_id: ref(['user'], 'Their user account'),
  },
  scopes: { issue_id: 'issue_id', user_id: 'user_id' },
};

const label: ResourceSpec = {
  key: 'label',
  tool: 'entity',
  name: 'label',
  table: 'entity_labels',
  doc: 'A label issues can carry (unique name per org)',
  fields: {
    name: name('Its name', { required: true }),
    color: name('A colour, e.g. #d73a4a'),
    org_id: ref(['org'], 'The org', { fixed: true }),
  },
  unique: [['org_id', 'name']],
  scopes: { org_id: 'org_id' },
};

const labelAssignment: ResourceSpec = {
  key: 'label_assignment',
  tool: 'entity',
  name: 'label_assignment',
  table: 'entity_label_assignments',
  doc: 'A label on an issue, once (delete by issue_id + label_id without an id: unassign)',
  fields: {
    issue_id: ref(['issue'], 'The issue', { required: true, fixed: true }),
    label_id: ref(['label'], 'The label', { required: true, fixed: true }),
  },
  unique: [['issue_id', 'label_id']],
  scopes: { issue_id: 'issue_id', label_id: 'label_id' },
  sameParent: [
    {
      field: 'label_id',
      column: 'org_id',
      equals: { ref: 'issue_id', column: 'org_id' },
      why: 'a label of the issue’s org',
    },
  ],
};

/** The entity tool's planning and issue resources. */
export const WORK_RESOURCES: readonly ResourceSpec[] = [
  plan,
  version,
  review,
  issue,
  comment,
  label,
  labelAssignment,
];
