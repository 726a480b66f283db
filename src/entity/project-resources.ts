// The project tool's resources (spec section 7): project, phase, issue, dependency, decision.
// Every row but a project belongs to the project the call's project_id names; a project issue
// may link a board task (task_id) instead of copying it; dependencies between issues and phases
// of one project refuse cycles.
import { refuseCycle } from './cycles.js';
import { boardTask, int, name, oneOf, ref, text } from './fields.js';
import type { ResourceSpec } from './model.js';

const inProject = ref(['project'], 'The project (the call’s project_id)', {
  required: true,
  fixed: true,
});

const project: ResourceSpec = {
  key: 'project',
  tool: 'project',
  name: 'project',
  table: 'projects',
  doc: 'A project; its id is the call’s project_id (create: the new project’s id)',
  fields: {
    name: name('Display name (default: the id)'),
    description: text('What it is for'),
    status: oneOf(['active', 'paused', 'done', 'archived'], 'Its state'),
  },
  beforeCreate: (_ctx, row) => Promise.resolve({ set: { name: row['name'] ?? row['id'] ?? null } }),
};

const phase: ResourceSpec = {
  key: 'phase',
  tool: 'project',
  name: 'phase',
  table: 'project_phases',
  doc: 'A stage of a project (unique name per project)',
  fields: {
    project_id: inProject,
    name: name('Its name', { required: true }),
    description: text('What it covers'),
    status: oneOf(['planned', 'active', 'done', 'cancelled'], 'Its state'),
    position: int('Order among the project’s phases', 0, 1_000_000),
  },
  unique: [['project_id', 'name']],
  scopes: { project_id: 'project_id' },
};

const issue: ResourceSpec = {
  key: 'project_issue',
  tool: 'project',
  name: 'issue',
  table: 'project_issues',
  doc: 'A piece of work in a project, optionally in a phase and linked to a board task',
  fields: {
    project_id: inProject,
    phase_id: ref(['phase'], 'The phase it belongs to (same project)'),
    title: text('What to do', 500, { required: true }),
    description: text('Details'),
    status: oneOf(['open', 'in_progress', 'blocked', 'done', 'closed'], 'Its state'),
    priority: int('Higher first', -1000, 1000, { default: 0 }),
    assignee: name('Who works on it (an agent or person)'),
    task_id: boardTask('The board task that carries the work (a live task on the board)'),
  },
  scopes: { project_id: 'project_id' },
  sameParent: [
    {
      field: 'phase_id',
      column: 'project_id',
      equals: 'project_id',
      why: 'a phase of its project',
    },
  ],
};

const dependency: ResourceSpec = {
  key: 'dependency',
  tool: 'project',
  name: 'dependency',
  table: 'project_dependencies',
  doc: 'from_id depends on depends_on_id (issues or phases of one project); cycles are refused',
  fields: {
    project_id: inProject,
    from_id: ref(['project_issue', 'phase'], 'The issue or phase that waits', {
      required: true,
    }),
    depends_on_id: ref(['project_issue', 'phase'], 'The issue or phase it waits for', {
      required: true,
    }),
    note: text('Why', 2000),
  },
  unique: [['from_id', 'depends_on_id']],
  scopes: { project_id: 'project_id' },
  sameParent: [
    { field: 'from_id', column: 'project_id', equals: 'project_id', why: 'in its project' },
    { field: 'depends_on_id', column: 'project_id', equals: 'project_id', why: 'in its project' },
  ],
  beforeCreate: async (ctx, row) => {
    await refuseCycle(ctx.tx, 'project_dependencies', {
      project: String(row['project_id']),
      from: String(row['from_id']),
      to: String(row['depends_on_id']),
    });
    return undefined;
  },
  beforeUpdate: (ctx, current, next) =>
    refuseCycle(ctx.tx, 'project_dependencies', {
      project: String(next['project_id']),
      from: String(next['from_id']),
      to: String(next['depends_on_id']),
      ignore: String(current['id']),
    }),
};

const decision: ResourceSpec = {
  key: 'decision',
  tool: 'project',
  name: 'decision',
  table: 'project_decisions',
  doc: 'A decision taken in a project, optionally about one of its issues',
  fields: {
    project_id: inProject,
    title: text('What was decided, in a line', 500, { required: true }),
    decision: text('The decision in full'),
    rationale: text('Why'),
    status: oneOf(['proposed', 'accepted', 'rejected', 'superseded'], 'Its state'),
    issue_id: ref(['project_issue'], 'The issue it settles (same project)'),
  },
  scopes: { project_id: 'project_id' },
  sameParent: [
    {
      field: 'issue_id',
      column: 'project_id',
      equals: 'project_id',
      why: 'an issue of its project',
    },
  ],
};

/** The project tool's resources, in the spec's order. */
export const PROJECT_RESOURCES: readonly ResourceSpec[] = [
  project,
  phase,
  issue,
  dependency,
  decision,
];
